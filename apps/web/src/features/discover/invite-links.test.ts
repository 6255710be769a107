import { inviteCodeSchema } from '@teltlk/protocol';
import { describe, expect, it } from 'vitest';
import { cardLink, inviteLink } from './invite-page';

describe('invitation links', () => {
  it('opens registration with the code, which the register page reads back', () => {
    const link = inviteLink('J8WV6G7J', 'https://teltlk.example');
    expect(link).toBe('https://teltlk.example/#/pages/register/register?invite=J8WV6G7J');
    const code = new URL(link.replace('/#/', '/')).searchParams.get('invite');
    expect(inviteCodeSchema.parse(code)).toBe('J8WV6G7J');
  });

  it('opens my profile from my card', () => {
    expect(cardLink('abc123', 'https://teltlk.example')).toBe(
      'https://teltlk.example/#/pages/contacts/seeMeans?userId=abc123',
    );
  });
});
