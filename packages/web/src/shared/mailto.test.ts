import { describe, expect, it } from 'vitest';
import { mailtoHref } from './mailto.ts';

describe('mailtoHref', () => {
  it('links a plain address as it is', () => {
    expect(mailtoHref('price.transparency@hospital.org')).toBe(
      'mailto:price.transparency@hospital.org',
    );
  });

  it('keeps what follows ? and & in the address from becoming headers', () => {
    const href = mailtoHref('billing@hospital.org?bcc=x%40evil.example&body=Send%20your%20ID');
    expect(href).toBe(
      'mailto:billing@hospital.org%3Fbcc%3Dx%2540evil.example%26body%3DSend%2520your%2520ID',
    );
    const url = new URL(href);
    expect(url.search).toBe('');
    expect(decodeURIComponent(url.pathname)).toBe(
      'billing@hospital.org?bcc=x%40evil.example&body=Send%20your%20ID',
    );
  });
});
