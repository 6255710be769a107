/** The landing site's words, in the three interface languages: our own writing. */

import type { UiLanguage } from '@teltlk/protocol';

export type LandingLanguage = UiLanguage;

export interface LandingTexts {
  /** The language's name in itself, for the switcher. */
  name: string;
  title: string;
  description: string;
  nav: { enlist: string; cooperate: string; privacy: string; login: string; home: string };
  hero: { heading: string; text: string; open: string; download: string };
  stats: { value: string; label: string }[];
  sections: { id: string; heading: string; text: string; items?: string[] }[];
  download: { heading: string; text: string; android: string; ios: string; web: string };
  enlist: { title: string; intro: string; roles: { name: string; text: string }[]; apply: string };
  cooperate: {
    title: string;
    intro: string;
    kinds: string[];
    form: {
      name: string;
      organisation: string;
      email: string;
      kind: string;
      message: string;
      send: string;
      note: string;
    };
    thanks: { title: string; text: string; back: string };
  };
  privacyTitle: string;
  footer: { rights: string; contact: string; terms: string };
}

export const LANDING: Record<LandingLanguage, LandingTexts> = {
  en_US: {
    name: 'English',
    title: 'Teltlk: chat with pioneers in your own language',
    description:
      'Teltlk is the chat app of the Pi Network community: messages, groups of up to 100,000 members and a Pi wallet, each message translated into your mother tongue.',
    nav: {
      enlist: 'Join us',
      cooperate: 'Partner with us',
      privacy: 'Privacy',
      login: 'Log in',
      home: 'Teltlk home',
    },
    hero: {
      heading: 'Chat with pioneers everywhere, each in their own language',
      text: 'Write in your language; everyone reads you in theirs. Teltlk translates every message with AI, so pioneers in over 180 countries can talk, trade and build together.',
      open: 'Log in to the app',
      download: 'Download the app',
    },
    stats: [
      { value: '180+', label: 'countries in the community' },
      { value: '100,000', label: 'members in one group' },
      { value: '3', label: 'interface languages, every mother tongue translated' },
    ],
    sections: [
      {
        id: 'pioneers',
        heading: 'For pioneers',
        text: 'Sign in with your Pi account in the Pi Browser, find friends by phone, ID or email, and meet the community in groups. Check in daily to mine points, invite your team and climb the rankings.',
        items: [
          'One-to-one and group chats that never lose a message',
          'Photos, voice, video, files, locations and cards',
          'Daily mining check-in, team boosters and rankings',
        ],
      },
      {
        id: 'products',
        heading: 'Our products',
        text: 'Teltlk brings together what a pioneer needs day to day.',
        items: [
          'Teltlk Chat: messages translated into your mother tongue',
          'Teltlk Wallet: Pi transfers and red envelopes, guarded by a payment password',
          'Teltlk Discover: mining, invitations and team rankings',
        ],
      },
      {
        id: 'web3',
        heading: 'Web3 apps',
        text: 'Pay with Pi in chats, send red envelopes to a group and keep your assets in one wallet. Apps built for the Pi ecosystem will open right beside your chats.',
      },
      {
        id: 'nft',
        heading: 'NFT market',
        text: 'Collect badges and artworks minted for the community, show them in your wallet and give them to friends in a chat.',
      },
      {
        id: 'games',
        heading: 'Games',
        text: 'Play with your groups: simple games that friends across languages can enjoy together are on their way.',
      },
    ],
    download: {
      heading: 'Get Teltlk',
      text: 'Use Teltlk in any modern browser and install it to your home screen, or get the app for your phone.',
      android: 'Android',
      ios: 'iPhone',
      web: 'Open in the browser',
    },
    enlist: {
      title: 'Join the Teltlk team',
      intro:
        'Teltlk is built by pioneers for pioneers. We are looking for people who want to help the community talk across languages.',
      roles: [
        {
          name: 'Community ambassadors',
          text: 'Welcome newcomers in your country, run local groups and tell us what pioneers need.',
        },
        {
          name: 'Translators and reviewers',
          text: 'Check how Teltlk speaks your language and help the translations read naturally.',
        },
        {
          name: 'Moderators',
          text: 'Keep large groups friendly and safe, in your language and time zone.',
        },
        {
          name: 'Engineers and designers',
          text: 'Build a fast chat app for cheap phones on slow networks, in TypeScript.',
        },
      ],
      apply: 'Write to us with the role you are interested in, your country and your languages:',
    },
    cooperate: {
      title: 'Partner with Teltlk',
      intro:
        'Projects, merchants, communities and media of the Pi ecosystem: reach pioneers in over 180 countries, each in their own language. Tell us about your idea and we will answer by email.',
      kinds: ['Business or merchant', 'Community', 'Media', 'Technology', 'Other'],
      form: {
        name: 'Your name',
        organisation: 'Organisation (optional)',
        email: 'Email',
        kind: 'Kind of partnership',
        message: 'Your proposal',
        send: 'Send',
        note: 'We use these details only to answer you.',
      },
      thanks: {
        title: 'Thank you',
        text: 'Your proposal has reached us. We will answer by email.',
        back: 'Back to Teltlk',
      },
    },
    privacyTitle: 'Privacy Policy',
    footer: { rights: 'Teltlk', contact: 'Contact', terms: 'Terms of Service' },
  },
  zh_CN: {
    name: '简体中文',
    title: 'Teltlk：用母语与全球先锋畅聊',
    description:
      'Teltlk 是 Pi Network 社区的聊天应用：私聊、最多 10 万人的群组和 Pi 钱包，每条消息都翻译成你的母语。',
    nav: {
      enlist: '加入我们',
      cooperate: '商务合作',
      privacy: '隐私政策',
      login: '登录',
      home: 'Teltlk 首页',
    },
    hero: {
      heading: '与世界各地的先锋畅聊，人人都用自己的语言',
      text: '用你的语言书写，每个人都用自己的语言阅读。Teltlk 用 AI 翻译每一条消息，让 180 多个国家的先锋一起交流、交易和建设。',
      open: '登录应用',
      download: '下载应用',
    },
    stats: [
      { value: '180+', label: '个国家和地区的社区' },
      { value: '100,000', label: '人的超大群组' },
      { value: '3', label: '种界面语言，任何母语都能翻译' },
    ],
    sections: [
      {
        id: 'pioneers',
        heading: '先锋用户',
        text: '在 Pi 浏览器中用 Pi 账号登录，通过手机号、ID 或邮箱找到好友，在群组中结识社区。每日签到挖矿，邀请团队，冲击排行榜。',
        items: [
          '从不丢消息的私聊和群聊',
          '图片、语音、视频、文件、位置和名片',
          '每日签到挖矿、团队加速和排行榜',
        ],
      },
      {
        id: 'products',
        heading: '我们的产品',
        text: 'Teltlk 汇集了先锋日常所需。',
        items: [
          'Teltlk 聊天：消息翻译成你的母语',
          'Teltlk 钱包：Pi 转账和红包，由支付密码守护',
          'Teltlk 发现：挖矿、邀请和团队排行',
        ],
      },
      {
        id: 'web3',
        heading: 'Web3 应用',
        text: '在聊天中用 Pi 付款，给群组发红包，把资产放在一个钱包里。为 Pi 生态打造的应用将直接在聊天旁打开。',
      },
      {
        id: 'nft',
        heading: 'NFT 市场',
        text: '收藏为社区铸造的徽章和作品，在钱包中展示，并在聊天中送给好友。',
      },
      {
        id: 'games',
        heading: '游戏',
        text: '和群友一起玩：跨越语言也能一起享受的小游戏即将上线。',
      },
    ],
    download: {
      heading: '获取 Teltlk',
      text: '在任何现代浏览器中使用 Teltlk 并添加到主屏幕，或下载手机应用。',
      android: 'Android',
      ios: 'iPhone',
      web: '在浏览器中打开',
    },
    enlist: {
      title: '加入 Teltlk 团队',
      intro: 'Teltlk 由先锋为先锋打造。我们正在寻找愿意帮助社区跨越语言交流的伙伴。',
      roles: [
        { name: '社区大使', text: '在你的国家欢迎新人，运营本地群组，告诉我们先锋的需要。' },
        { name: '译者与审校', text: '检查 Teltlk 的本地化表达，让翻译读起来自然流畅。' },
        { name: '群管理员', text: '在你的语言和时区中，让大群友好而安全。' },
        { name: '工程师与设计师', text: '用 TypeScript 为慢网络上的平价手机打造飞快的聊天应用。' },
      ],
      apply: '请写信告诉我们你感兴趣的岗位、所在国家和掌握的语言：',
    },
    cooperate: {
      title: '与 Teltlk 合作',
      intro:
        'Pi 生态的项目、商家、社区和媒体：以各自的母语触达 180 多个国家的先锋。告诉我们你的想法，我们会通过邮件回复。',
      kinds: ['商业或商家', '社区', '媒体', '技术', '其他'],
      form: {
        name: '你的姓名',
        organisation: '机构（选填）',
        email: '邮箱',
        kind: '合作类型',
        message: '合作方案',
        send: '提交',
        note: '这些信息仅用于回复你。',
      },
      thanks: {
        title: '感谢',
        text: '我们已收到你的合作方案，会通过邮件回复。',
        back: '返回 Teltlk',
      },
    },
    privacyTitle: '隐私政策',
    footer: { rights: 'Teltlk', contact: '联系我们', terms: '服务条款' },
  },
  zh_TW: {
    name: '繁體中文',
    title: 'Teltlk：用母語與全球先鋒暢聊',
    description:
      'Teltlk 是 Pi Network 社群的聊天應用程式：私聊、最多 10 萬人的群組和 Pi 錢包，每則訊息都翻譯成你的母語。',
    nav: {
      enlist: '加入我們',
      cooperate: '商務合作',
      privacy: '隱私政策',
      login: '登入',
      home: 'Teltlk 首頁',
    },
    hero: {
      heading: '與世界各地的先鋒暢聊，人人都用自己的語言',
      text: '用你的語言書寫，每個人都用自己的語言閱讀。Teltlk 用 AI 翻譯每一則訊息，讓 180 多個國家的先鋒一起交流、交易和建設。',
      open: '登入應用程式',
      download: '下載應用程式',
    },
    stats: [
      { value: '180+', label: '個國家和地區的社群' },
      { value: '100,000', label: '人的超大群組' },
      { value: '3', label: '種介面語言，任何母語都能翻譯' },
    ],
    sections: [
      {
        id: 'pioneers',
        heading: '先鋒用戶',
        text: '在 Pi 瀏覽器中用 Pi 帳號登入，透過手機號碼、ID 或電子郵件找到好友，在群組中結識社群。每日簽到挖礦，邀請團隊，衝擊排行榜。',
        items: [
          '從不遺失訊息的私聊和群聊',
          '圖片、語音、影片、檔案、位置和名片',
          '每日簽到挖礦、團隊加速和排行榜',
        ],
      },
      {
        id: 'products',
        heading: '我們的產品',
        text: 'Teltlk 匯集了先鋒日常所需。',
        items: [
          'Teltlk 聊天：訊息翻譯成你的母語',
          'Teltlk 錢包：Pi 轉帳和紅包，由支付密碼守護',
          'Teltlk 發現：挖礦、邀請和團隊排行',
        ],
      },
      {
        id: 'web3',
        heading: 'Web3 應用',
        text: '在聊天中用 Pi 付款，給群組發紅包，把資產放在一個錢包裡。為 Pi 生態打造的應用將直接在聊天旁開啟。',
      },
      {
        id: 'nft',
        heading: 'NFT 市場',
        text: '收藏為社群鑄造的徽章和作品，在錢包中展示，並在聊天中送給好友。',
      },
      {
        id: 'games',
        heading: '遊戲',
        text: '和群友一起玩：跨越語言也能一起享受的小遊戲即將上線。',
      },
    ],
    download: {
      heading: '取得 Teltlk',
      text: '在任何現代瀏覽器中使用 Teltlk 並加入主畫面，或下載手機應用程式。',
      android: 'Android',
      ios: 'iPhone',
      web: '在瀏覽器中開啟',
    },
    enlist: {
      title: '加入 Teltlk 團隊',
      intro: 'Teltlk 由先鋒為先鋒打造。我們正在尋找願意幫助社群跨越語言交流的夥伴。',
      roles: [
        { name: '社群大使', text: '在你的國家歡迎新人，經營在地群組，告訴我們先鋒的需要。' },
        { name: '譯者與審校', text: '檢查 Teltlk 的在地化表達，讓翻譯讀起來自然流暢。' },
        { name: '群組管理員', text: '在你的語言和時區中，讓大群組友善而安全。' },
        {
          name: '工程師與設計師',
          text: '用 TypeScript 為慢網路上的平價手機打造飛快的聊天應用程式。',
        },
      ],
      apply: '請寫信告訴我們你感興趣的職位、所在國家和掌握的語言：',
    },
    cooperate: {
      title: '與 Teltlk 合作',
      intro:
        'Pi 生態的專案、商家、社群和媒體：以各自的母語觸及 180 多個國家的先鋒。告訴我們你的想法，我們會透過電子郵件回覆。',
      kinds: ['商業或商家', '社群', '媒體', '技術', '其他'],
      form: {
        name: '你的姓名',
        organisation: '機構（選填）',
        email: '電子郵件',
        kind: '合作類型',
        message: '合作方案',
        send: '送出',
        note: '這些資訊僅用於回覆你。',
      },
      thanks: {
        title: '感謝',
        text: '我們已收到你的合作方案，會透過電子郵件回覆。',
        back: '返回 Teltlk',
      },
    },
    privacyTitle: '隱私政策',
    footer: { rights: 'Teltlk', contact: '聯絡我們', terms: '服務條款' },
  },
};
