import { lazy, type ComponentType } from 'react';
import { createHashRouter, type RouteObject } from 'react-router';
import { GuestOnly, RequireAuth, useSignedIn } from './guards';
import { AppLayout } from './layouts';
import { NotFoundPage } from './not-found-page';
import { trackPageLoad } from './page-loads';
import { paths } from './paths';
import { RouteError } from './route-error';

/** A route-level chunk: each page downloads when first visited, with the bar meanwhile. */
function page<K extends string, P extends object = object>(
  load: () => Promise<Record<K, ComponentType<P>>>,
  name: K,
) {
  return lazy(() => trackPageLoad(load()).then((module) => ({ default: module[name] })));
}

const TabLayout = page(() => import('./signed-in'), 'TabLayout');
const LoginPage = page(() => import('../features/auth/login-page'), 'LoginPage');
const PiLoginPage = page(() => import('../features/auth/pi-login-page'), 'PiLoginPage');
const BindTipsPage = page(() => import('../features/auth/pi-bind-pages'), 'BindTipsPage');
const BindAccountPage = page(() => import('../features/auth/pi-bind-pages'), 'BindAccountPage');
const CodeLoginPage = page(() => import('../features/auth/code-login-page'), 'CodeLoginPage');
const PhoneCodePage = page(() => import('../features/auth/phone-code-page'), 'PhoneCodePage');
const ForgetPage = page(() => import('../features/auth/forget-page'), 'ForgetPage');
const ForgetPasswordPage = page(
  () => import('../features/auth/forget-password-page'),
  'ForgetPasswordPage',
);
const RegisterPage = page(() => import('../features/auth/register-page'), 'RegisterPage');
const BindPhonePage = page(() => import('../features/auth/register-page'), 'BindPhonePage');
const AreaPage = page(() => import('../features/auth/area-page'), 'AreaPage');
const SendCodePage = page(() => import('../features/auth/send-code-page'), 'SendCodePage');
const RegisterAccountPage = page(
  () => import('../features/auth/register-account-page'),
  'RegisterAccountPage',
);
const SelectRegionPage = page(
  () => import('../features/auth/select-region-page'),
  'SelectRegionPage',
);
const RegisterLanguagePage = page(
  () => import('../features/auth/register-language-page'),
  'RegisterLanguagePage',
);
const InviteCodePage = page(() => import('../features/auth/invite-code-page'), 'InviteCodePage');
const PcDevicePage = page(() => import('../features/auth/pc-device-page'), 'PcDevicePage');
const MobileDevicePage = page(
  () => import('../features/auth/device-approve-pages'),
  'MobileDevicePage',
);
const VerificationPage = page(
  () => import('../features/auth/device-approve-pages'),
  'VerificationPage',
);
const UpgradationPage = page(
  () => import('../features/upgrade/upgradation-page'),
  'UpgradationPage',
);
const AgreementPage = page(() => import('../features/legal/legal-page'), 'AgreementPage');
const ServicePage = page(() => import('../features/legal/legal-page'), 'ServicePage');
const PrivacyPage = page(() => import('../features/legal/legal-page'), 'PrivacyPage');
const HomePage = page(() => import('../features/home/home-page'), 'HomePage');
const ChatPage = page(() => import('../features/chat/chat-page'), 'ChatPage');
const ChatSettingPage = page(() => import('../features/chat/chat-setting-page'), 'ChatSettingPage');
const TonguePage = page(() => import('../features/chat/tongue-page'), 'TonguePage');
const SetUserToguePage = page(() => import('../features/chat/tongue-page'), 'SetUserToguePage');
const SetUserNicknamePage = page(
  () => import('../features/contacts/remark-page'),
  'SetUserNicknamePage',
);
const SearchPage = page(() => import('../features/chat/search-page'), 'SearchPage');
const ContactsPage = page(() => import('../features/contacts/contacts-page'), 'ContactsPage');
const NewFriendPage = page(
  () => import('../features/contacts/friend-requests-page'),
  'NewFriendPage',
);
const SentRequestsPage = page(
  () => import('../features/contacts/friend-requests-page'),
  'SentRequestsPage',
);
const AddFriendPage = page(() => import('../features/contacts/add-friend-page'), 'AddFriendPage');
const HomeAddFriendPage = page(
  () => import('../features/contacts/add-friend-page'),
  'HomeAddFriendPage',
);
const GroupChatsPage = page(() => import('../features/groups/group-chats-page'), 'GroupChatsPage');
const CreateGroupPage = page(
  () => import('../features/groups/create-group-page'),
  'CreateGroupPage',
);
const GroupListPage = page(() => import('../features/groups/group-list-page'), 'GroupListPage');
const GroupSettingPage = page(
  () => import('../features/groups/group-setting-page'),
  'GroupSettingPage',
);
const GroupFieldPage = page(() => import('../features/groups/group-field-page'), 'GroupFieldPage');
const GroupTipPage = page(() => import('../features/groups/group-tip-page'), 'GroupTipPage');
const AddGroupPage = page(() => import('../features/groups/add-group-page'), 'AddGroupPage');
const GroupApplicationsPage = page(
  () => import('../features/groups/group-applications-page'),
  'GroupApplicationsPage',
);
const PersonPage = page(() => import('../features/contacts/person-page'), 'PersonPage');
const OfficialAccountsPage = page(
  () => import('../features/contacts/official-accounts-page'),
  'OfficialAccountsPage',
);
const BlacklistPage = page(() => import('../features/contacts/blacklist-page'), 'BlacklistPage');
const DiscoverPage = page(() => import('../features/discover/discover-page'), 'DiscoverPage');
const CoinPage = page(() => import('../features/discover/coin-page'), 'CoinPage');
const TeamPage = page(() => import('../features/discover/team-page'), 'TeamPage');
const RankingsPage = page(() => import('../features/discover/rankings-page'), 'RankingsPage');
const InvitePage = page(() => import('../features/discover/invite-page'), 'InvitePage');
const MinePage = page(() => import('../features/user/mine-page'), 'MinePage');
const ProfilePage = page(() => import('../features/user/profile-page'), 'ProfilePage');
const EditNicknamePage = page(
  () => import('../features/user/edit-nickname-page'),
  'EditNicknamePage',
);
const ChooseCountryPage = page(
  () => import('../features/user/choose-country-page'),
  'ChooseCountryPage',
);
const ChooseTonguePage = page(
  () => import('../features/user/choose-tongue-page'),
  'ChooseTonguePage',
);
const WalletPage = page(() => import('../features/wallet/wallet-page'), 'WalletPage');
const CreateWalletPage = page(() => import('../features/wallet/wallet-page'), 'CreateWalletPage');
const PaymentPasswordPage = page(
  () => import('../features/wallet/payment-password-page'),
  'PaymentPasswordPage',
);
const PiWalletPage = page(() => import('../features/wallet/pi-wallet-page'), 'PiWalletPage');
const BalancePage = page(() => import('../features/wallet/pi-wallet-page'), 'BalancePage');
const AccountSecurityPage = page(
  () => import('../features/user/account-security-page'),
  'AccountSecurityPage',
);
const ChangeAddressPage = page(
  () => import('../features/auth/change-address-page'),
  'ChangeAddressPage',
);
const SecurityActivityPage = page(
  () => import('../features/security/security-activity-page'),
  'SecurityActivityPage',
);
const AddressUndoPage = page(
  () => import('../features/security/address-undo-page'),
  'AddressUndoPage',
);
const AboutPage = page(() => import('../features/user/about-page'), 'AboutPage');
const SettingsPage = page(() => import('../features/settings/settings-page'), 'SettingsPage');
const MessagePage = page(() => import('../features/settings/message-page'), 'MessagePage');

/** `/`: the sign-in page when signed out, the chat list (home tab) when signed in. */
function RootPage() {
  return useSignedIn() ? (
    <TabLayout>
      <HomePage />
    </TabLayout>
  ) : (
    <LoginPage />
  );
}

export const routes: RouteObject[] = [
  {
    element: <AppLayout />,
    errorElement: <RouteError />,
    children: [
      { path: paths.root, element: <RootPage /> },
      {
        element: <GuestOnly />,
        children: [
          { path: paths.login, element: <LoginPage /> },
          { path: paths.mobileLogin, element: <CodeLoginPage /> },
          { path: paths.phoneCode, element: <PhoneCodePage /> },
          { path: paths.register, element: <RegisterPage /> },
          { path: paths.piLogin, element: <PiLoginPage /> },
          { path: paths.bindTips, element: <BindTipsPage /> },
          { path: paths.bindAccount, element: <BindAccountPage /> },
          { path: paths.registerAccount, element: <RegisterAccountPage /> },
          { path: paths.selectRegion, element: <SelectRegionPage /> },
          { path: paths.registerLanguage, element: <RegisterLanguagePage /> },
          { path: paths.inviteCode, element: <InviteCodePage /> },
          { path: paths.pcDevice, element: <PcDevicePage /> },
        ],
      },
      {
        element: <RequireAuth />,
        children: [
          {
            element: <TabLayout />,
            children: [
              { path: paths.home, element: <HomePage /> },
              { path: paths.contacts, element: <ContactsPage /> },
              { path: paths.find, element: <DiscoverPage /> },
              { path: paths.user, element: <MinePage /> },
            ],
          },
          { path: paths.chat, element: <ChatPage /> },
          { path: paths.chatSetting, element: <ChatSettingPage /> },
          { path: paths.tongue, element: <TonguePage /> },
          { path: paths.setUserTogue, element: <SetUserToguePage /> },
          { path: paths.setUserNickname, element: <SetUserNicknamePage /> },
          { path: paths.search, element: <SearchPage /> },
          { path: paths.newFriend, element: <NewFriendPage /> },
          { path: paths.seeNewFriend, element: <SentRequestsPage /> },
          { path: paths.addFriend, element: <AddFriendPage /> },
          { path: paths.homeAddFriend, element: <HomeAddFriendPage /> },
          { path: paths.contactsGroupChat, element: <GroupChatsPage /> },
          { path: paths.groupChat, element: <CreateGroupPage /> },
          { path: paths.groupList, element: <GroupListPage /> },
          { path: paths.groupSetting, element: <GroupSettingPage /> },
          { path: paths.groupName, element: <GroupFieldPage /> },
          { path: paths.groupTip, element: <GroupTipPage /> },
          { path: paths.addGroup, element: <AddGroupPage /> },
          { path: paths.groupApplications, element: <GroupApplicationsPage /> },
          { path: paths.seeMeans, element: <PersonPage /> },
          { path: paths.officialAccounts, element: <OfficialAccountsPage /> },
          { path: paths.blacklist, element: <BlacklistPage /> },
          { path: paths.means, element: <ProfilePage /> },
          { path: paths.nickname, element: <EditNicknamePage /> },
          { path: paths.chooseCountry, element: <ChooseCountryPage /> },
          { path: paths.chooseTongue, element: <ChooseTonguePage /> },
          { path: paths.setting, element: <SettingsPage /> },
          { path: paths.message, element: <MessagePage /> },
          { path: paths.accountSecurity, element: <AccountSecurityPage /> },
          { path: paths.accountSafe, element: <AccountSecurityPage /> },
          { path: paths.changeAddress, element: <ChangeAddressPage /> },
          { path: paths.securityActivity, element: <SecurityActivityPage /> },
          { path: paths.coin, element: <CoinPage /> },
          { path: paths.team, element: <TeamPage /> },
          { path: paths.rank, element: <RankingsPage /> },
          { path: paths.twoCode, element: <InvitePage /> },
          { path: paths.wallet, element: <WalletPage /> },
          { path: paths.creatWallet, element: <CreateWalletPage /> },
          { path: paths.creatPassword, element: <PaymentPasswordPage /> },
          { path: paths.walletPi, element: <PiWalletPage /> },
          { path: paths.balance, element: <BalancePage /> },
          { path: paths.mobileDevice, element: <MobileDevicePage /> },
          { path: paths.verification, element: <VerificationPage /> },
        ],
      },
      // Open to everyone: the area-code list, password reset, legal texts, about; a phone
      // and its code (registration signed out, a phone added to the account signed in);
      // the link that undoes an address change, opened wherever the old address is read.
      { path: paths.bindPhoneNumber, element: <BindPhonePage /> },
      { path: paths.sendCode, element: <SendCodePage /> },
      { path: paths.area, element: <AreaPage /> },
      { path: paths.forget, element: <ForgetPage /> },
      { path: paths.forgetPassword, element: <ForgetPasswordPage /> },
      { path: paths.agreement, element: <AgreementPage /> },
      { path: paths.service, element: <ServicePage /> },
      { path: paths.privacy, element: <PrivacyPage /> },
      { path: paths.about, element: <AboutPage /> },
      { path: paths.upgradation, element: <UpgradationPage /> },
      { path: paths.securityUndo, element: <AddressUndoPage /> },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
];

export function createAppRouter() {
  return createHashRouter(routes);
}
