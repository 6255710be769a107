import { CONTACT_EMAIL } from '@teltlk/protocol';
import type { LegalTexts } from './legal-document';

export const en_US: LegalTexts = {
  agreement: [
    {
      heading: '1. About this agreement',
      paragraphs: [
        'This User Agreement is between you and the operator of this Teltlk service ("we", "us"). It sets out how you may use Teltlk, a chat app for the Pi Network community. By creating an account or using Teltlk you accept this agreement, together with the Terms of Service and the Privacy Policy.',
      ],
    },
    {
      heading: '2. Your account',
      paragraphs: [
        'You sign up with a phone number or an email address that belongs to you, and you confirm it with a verification code. You must be old enough to agree to these terms under the law of your country, and at least 13 years old.',
        'Keep your password to yourself. You are responsible for what happens in your account. If you think someone else has used it, change your password and sign out the devices you do not recognise under Account security.',
      ],
    },
    {
      heading: '3. Nickname, Teltlk ID and profile',
      paragraphs: [
        'Your nickname, Teltlk ID, avatar, country and mother tongue can be seen by the people you talk to. Your Teltlk ID can be changed once a month. Do not choose a name or picture that impersonates someone else or that is offensive.',
      ],
    },
    {
      heading: '4. Using Teltlk responsibly',
      paragraphs: ['When you use Teltlk you agree not to:'],
      items: [
        'send content that is illegal, threatening, hateful or sexually exploits anyone;',
        'harass people, send spam, or add people to groups against their wishes;',
        'run scams, including fake offers to buy, sell or "unlock" Pi or other digital assets;',
        'ask anyone for their Pi wallet passphrase or passwords;',
        'share content you have no right to share;',
        'spread malware or try to break, overload or get around the security of the service.',
      ],
    },
    {
      heading: '5. Machine translation',
      paragraphs: [
        'Teltlk translates messages automatically into each reader’s mother tongue using AI translation services. Translations can be wrong or miss nuance. The original text is always kept, and you should not rely on a translation for legal, medical, financial or other important decisions.',
      ],
    },
    {
      heading: '6. Teltlk and Pi Network',
      paragraphs: [
        'Teltlk is an independent app for the Pi Network community. It is not run by the Pi Core Team. Payments in Pi are handled by the Pi Network platform under its own terms. We will never ask for your Pi wallet passphrase.',
      ],
    },
    {
      heading: '7. What you send',
      paragraphs: [
        'Messages, pictures and files you send remain yours. You allow us to store, transmit, translate and display them only as needed to run Teltlk for you and the people you talk to.',
      ],
    },
    {
      heading: '8. Suspension and ending your account',
      paragraphs: [
        'We may limit or suspend an account that breaks this agreement or puts other people at risk. You may stop using Teltlk at any time; to have your account deleted, write to us at the address below.',
      ],
    },
    {
      heading: '9. Changes and contact',
      paragraphs: [
        'We may update this agreement. The date at the top shows the latest version, and we will tell you in the app about important changes. Questions: ' +
          CONTACT_EMAIL +
          '.',
      ],
    },
  ],
  service: [
    {
      heading: '1. The service',
      paragraphs: [
        'Teltlk offers chats, contacts, groups and automatic translation of messages, and will add community features for Pi Network users over time. The service is free to use. Features may change as the app develops.',
      ],
    },
    {
      heading: '2. Availability',
      paragraphs: [
        'We work to keep Teltlk available and your messages safe, but we cannot promise that it will always be available, uninterrupted or free of errors. We may pause the service for maintenance, and some features may be temporarily unavailable.',
      ],
    },
    {
      heading: '3. Services of others',
      paragraphs: [
        'Teltlk relies on other providers: SMS and email services deliver verification codes, AI translation services translate messages, hosting providers run the servers, and the Pi Network platform handles Pi sign-in and payments. Their availability and their own terms also apply.',
      ],
    },
    {
      heading: '4. Pi and digital assets',
      paragraphs: [
        'Nothing in Teltlk is investment advice. We are not a bank, exchange or wallet provider, and we do not guarantee the value of Pi or any other asset. Where Teltlk offers features involving Pi, the app describes them before you use them.',
      ],
    },
    {
      heading: '5. Intellectual property',
      paragraphs: [
        'The Teltlk app, its design and its name belong to us or our licensors. Your content belongs to you, as described in the User Agreement.',
      ],
    },
    {
      heading: '6. Liability',
      paragraphs: [
        'To the extent the law allows, Teltlk is provided "as is", and we are not liable for indirect losses, for content sent by other users, or for errors in machine translation. Nothing in these terms limits rights you have under consumer protection law that cannot be waived.',
      ],
    },
    {
      heading: '7. Ending the service',
      paragraphs: [
        'You may stop using Teltlk at any time. We may end accounts that break the User Agreement. If we ever close the service, we will announce it in the app in advance where we can.',
      ],
    },
    {
      heading: '8. Changes and contact',
      paragraphs: [
        'We may update these terms; the date at the top shows the latest version. Questions: ' +
          CONTACT_EMAIL +
          '.',
      ],
    },
  ],
  privacy: [
    {
      heading: '1. Who we are',
      paragraphs: [
        'This policy explains what personal data the operator of this Teltlk service collects, why, and what choices you have. You can reach us at ' +
          CONTACT_EMAIL +
          '.',
      ],
    },
    {
      heading: '2. What we collect',
      paragraphs: ['We collect only what Teltlk needs to work:'],
      items: [
        'account data: your phone number or email address, nickname, Teltlk ID, country, mother tongue, avatar, invitation code and who invited you;',
        'your password, stored only as a salted one-way hash that cannot be turned back into the password;',
        'your settings, such as interface language and notification choices;',
        'messages, pictures and files you send, and their translations;',
        'security data: the IP address and browser of each signed-in device and when it was last active, which you can see under Account security.',
      ],
    },
    {
      heading: '3. How we use it',
      paragraphs: [
        'We use this data to run your account, deliver and translate messages, send verification codes, keep accounts safe (for example by limiting repeated wrong passwords), and answer your questions. We do not sell your data and we do not show advertising.',
      ],
    },
    {
      heading: '4. Translation by AI services',
      paragraphs: [
        'To translate a message, we send its text to the AI translation service chosen by the operator of this server (for example a large language model API or a translation server). We send only the text to be translated and the languages involved, not your phone number or email address. Each translation is stored with the message, so the same text is translated only once per language.',
      ],
    },
    {
      heading: '5. Where data is stored',
      paragraphs: [
        'Your data is stored on the servers run by the operator of this Teltlk service, and files may be kept in a storage service they use. Verification codes pass through the SMS or email provider that delivers them.',
      ],
    },
    {
      heading: '6. Who can see it',
      paragraphs: [
        'The people you chat with see your profile and the messages you send them; members of a group see what is sent in that group. Service providers process data only to provide their service to us. We disclose data to authorities only when the law requires it.',
      ],
    },
    {
      heading: '7. How long we keep it',
      paragraphs: [
        'We keep your data while your account exists. Signed-in sessions expire after 90 days without use. When your account is deleted, we delete its data within a reasonable time, except what the law requires us to keep.',
      ],
    },
    {
      heading: '8. Your choices and rights',
      paragraphs: [
        'You can see and correct your profile in the app, sign out other devices, and change your password. You can ask us for a copy of your data or for its deletion by writing to ' +
          CONTACT_EMAIL +
          '. Depending on where you live, you may have further rights under data protection law.',
      ],
    },
    {
      heading: '9. Storage in your browser',
      paragraphs: [
        'The app stores your session token and your interface language in your browser’s local storage, and keeps registration progress in session storage until the tab is closed. Teltlk uses no advertising or tracking cookies.',
      ],
    },
    {
      heading: '10. Children',
      paragraphs: [
        'Teltlk is not meant for children under 13, and we do not knowingly collect their data.',
      ],
    },
    {
      heading: '11. Changes',
      paragraphs: [
        'We may update this policy; the date at the top shows the latest version, and we will tell you in the app about important changes.',
      ],
    },
  ],
};
