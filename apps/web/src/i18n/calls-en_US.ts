/**
 * The call screens' texts: a namespace of its own, loaded with the screens when a call
 * starts or rings, so the app's first screen does not download them. English is the
 * reference the others match key for key.
 */
export const calls_en_US = {
  screen: 'Call',
  incomingVoice: 'Incoming voice call',
  incomingVideo: 'Incoming video call',
  incomingGroupVoice: '{name} invites you to a group voice call',
  incomingGroupVideo: '{name} invites you to a group video call',
  calling: 'Calling…',
  connecting: 'Connecting…',
  reconnecting: 'Reconnecting…',
  accept: 'Accept',
  acceptVoice: 'Accept',
  acceptVideo: 'Accept with video',
  decline: 'Decline',
  cancel: 'Cancel',
  hangUp: 'Hang up',
  mute: 'Mute',
  unmute: 'Unmute',
  cameraOff: 'Turn camera off',
  cameraOn: 'Turn camera on',
  switchCamera: 'Switch camera',
  speakerOn: 'Speaker',
  speakerOff: 'Speaker off',
  shareScreen: 'Share screen',
  stopSharing: 'Stop sharing',
  minimize: 'Minimize the call',
  restore: 'Back to the call',
  duration: 'Call duration {time}',
  you: 'You',
  people: '{count} in the call',
  speaking: '{name} is speaking',
  quality: {
    good: 'Good connection',
    fair: 'Fair connection',
    poor: 'Poor connection',
  },
  ended: {
    completed: 'Call ended',
    rejected: 'Call declined',
    cancelled: 'Call cancelled',
    busy: 'The person is in another call',
    missed: 'No answer',
    failed: 'Call failed: the connection was lost',
  },
  answeredElsewhere: 'Answered on another device',
  problem: {
    denied: 'Allow Teltlk to use your microphone (and camera for video) to make calls.',
    missing: 'No microphone or camera was found on this device.',
    busy: 'Your microphone or camera is being used by another app.',
    unsupported: 'This browser cannot make calls. Try an up-to-date Chrome, Safari or Firefox.',
  },
  groupBanner: 'A group call is in progress',
  groupBannerVideo: 'A group video call is in progress',
  join: 'Join',
  full: 'This call is full.',
};

export type CallsCatalog = typeof calls_en_US;
