import { escapeHtml } from '../http/html.ts';
import type { MailMessage } from './mailer.ts';

function linkEmail(
  to: string,
  subject: string,
  intro: string,
  action: string,
  link: string,
  outro: string,
): MailMessage {
  const text = `${intro}\n\n${action}: ${link}\n\n${outro}\n\nRateLens`;
  const html = `<!doctype html><html lang="en"><body style="font-family:system-ui,sans-serif;line-height:1.5;color:#1a1b1e">
<p>${escapeHtml(intro)}</p>
<p><a href="${escapeHtml(link)}" style="display:inline-block;padding:10px 16px;background:#1c7ed6;color:#fff;border-radius:6px;text-decoration:none">${escapeHtml(action)}</a></p>
<p style="font-size:14px;color:#555">If the button does not work, copy this address into your browser:<br>${escapeHtml(link)}</p>
<p style="font-size:14px;color:#555">${escapeHtml(outro)}</p>
<p>RateLens</p>
</body></html>`;
  return { to, subject, text, html };
}

export function verificationEmail(to: string, link: string, validHours: number): MailMessage {
  return linkEmail(
    to,
    'Verify your RateLens e-mail address',
    'Please confirm that this is your e-mail address so that we can send you your reports.',
    'Verify my e-mail address',
    link,
    `The link works once and expires in ${validHours} hours. If you did not create a RateLens account, ignore this message.`,
  );
}

export function passwordResetEmail(to: string, link: string, validMinutes: number): MailMessage {
  return linkEmail(
    to,
    'Reset your RateLens password',
    'We received a request to reset the password of your RateLens account.',
    'Choose a new password',
    link,
    `The link works once and expires in ${validMinutes} minutes. If you did not ask for it, ignore this message: your password stays as it is.`,
  );
}

export interface FeedbackNotice {
  firstName: string;
  lastName: string;
  email: string;
  subject: string;
  message: string;
  receivedAt: Date;
  /** The attachment's stored name and its admin-only download address. */
  attachment: { name: string; url: string } | null;
}

/** Tells the team a contact form arrived; the attachment stays behind the admin sign-in. */
export function feedbackNotification(to: string, notice: FeedbackNotice): MailMessage {
  const from = `${notice.firstName} ${notice.lastName} <${notice.email}>`;
  const attachment = notice.attachment
    ? `${notice.attachment.name} (administrators can download it at ${notice.attachment.url})`
    : 'none';
  const text = [
    `A visitor sent the contact form on ${notice.receivedAt.toISOString()}.`,
    '',
    `From: ${from}`,
    `Subject: ${notice.subject}`,
    `Attachment: ${attachment}`,
    '',
    notice.message,
    '',
    'RateLens',
  ].join('\n');
  const html = `<!doctype html><html lang="en"><body style="font-family:system-ui,sans-serif;line-height:1.5;color:#1a1b1e">
<p>A visitor sent the contact form on ${escapeHtml(notice.receivedAt.toISOString())}.</p>
<p><strong>From:</strong> ${escapeHtml(from)}<br>
<strong>Subject:</strong> ${escapeHtml(notice.subject)}<br>
<strong>Attachment:</strong> ${escapeHtml(attachment)}</p>
<p style="white-space:pre-wrap">${escapeHtml(notice.message)}</p>
<p>RateLens</p>
</body></html>`;
  return { to, subject: `Contact form: ${notice.subject}`, text, html };
}

/** Tells the team a visitor of the public plans page left a name and e-mail (`master/subscriptionViewMailSend`). */
export function planLeadNotification(
  to: string,
  lead: { name: string; email: string; receivedAt: Date },
): MailMessage {
  const intro = `A visitor of the plans page asked to hear from us on ${lead.receivedAt.toISOString()}.`;
  const text = [intro, '', `Name: ${lead.name}`, `Email: ${lead.email}`, '', 'RateLens'].join('\n');
  const html = `<!doctype html><html lang="en"><body style="font-family:system-ui,sans-serif;line-height:1.5;color:#1a1b1e">
<p>${escapeHtml(intro)}</p>
<p><strong>Name:</strong> ${escapeHtml(lead.name)}<br>
<strong>Email:</strong> ${escapeHtml(lead.email)}</p>
<p>RateLens</p>
</body></html>`;
  return { to, subject: `Plans page: ${lead.name.replace(/\s+/g, ' ')}`, text, html };
}

/** The donation page's one-time code (search-and-accounts §2 "Donation entry"). */
export function donationCodeEmail(to: string, code: string, validMinutes: number): MailMessage {
  const intro = 'Use this code to confirm your e-mail address and continue to the donation page:';
  const outro = `The code works once and expires in ${validMinutes} minutes. If you did not ask for it, ignore this message.`;
  const text = `${intro}\n\n${code}\n\n${outro}\n\nRateLens`;
  const html = `<!doctype html><html lang="en"><body style="font-family:system-ui,sans-serif;line-height:1.5;color:#1a1b1e">
<p>${escapeHtml(intro)}</p>
<p style="font-size:28px;font-weight:700;letter-spacing:8px">${escapeHtml(code)}</p>
<p style="font-size:14px;color:#555">${escapeHtml(outro)}</p>
<p>RateLens</p>
</body></html>`;
  return { to, subject: `Your RateLens donation code: ${code}`, text, html };
}
