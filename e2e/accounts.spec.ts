import { expect, test } from '@playwright/test';
import {
  expectAccessible,
  linkFromOutbox,
  PASSWORD,
  signIn,
  signUp,
  uniqueEmail,
} from './support.ts';

test.describe('accounts', () => {
  test('register, open the verification link from the outbox, and see the Verified flag', async ({
    page,
    request,
  }) => {
    const email = uniqueEmail('verify');
    await signUp(page, email);

    await page.goto('/profile');
    await expect(page.getByText('Email address is not verified')).toBeVisible();
    await expectAccessible(page);

    const link = await linkFromOutbox(request, email, 'Verify your RateLens e-mail address');
    await page.goto(link);
    await expect(page.getByText('Your email has been verified successfully.')).toBeVisible();
    await expectAccessible(page);
    await page.getByRole('link', { name: 'Go to Profile' }).click();

    await expect(page).toHaveURL(/\/profile$/);
    await expect(page.getByText('Verified', { exact: true })).toBeVisible();
    await expect(page.getByText('Email address is not verified')).toHaveCount(0);
    // The Verified badge shows only now: its colours are checked here, not before verification.
    await expectAccessible(page);
  });

  test('Verify Now sends a fresh verification e-mail', async ({ page, request }) => {
    const email = uniqueEmail('verify-now');
    await signUp(page, email);
    await page.goto('/profile');
    await page.getByRole('link', { name: 'Verify Now' }).click();
    await expect(page).toHaveURL(/\/verifyEmail$/);
    await expect(page.getByText(/We have sent a verification link to/)).toBeVisible();
    await expectAccessible(page);
    const link = await linkFromOutbox(request, email, 'Verify your RateLens e-mail address');
    expect(link).toContain('/confirmEmail?email=');
  });

  test('a focused e-mail or password box has a 2 px ring, as links and buttons do', async ({
    page,
  }) => {
    await page.goto('/login');
    for (const box of [
      page.getByLabel('E-mail'),
      page.getByRole('textbox', { name: 'Password', exact: true }),
    ]) {
      await box.focus();
      // The ring is on the box Mantine draws: the password field sits inside it.
      const ring = await box.evaluate((field) => {
        const drawn = field.closest('.mantine-Input-input') ?? field;
        const style = getComputedStyle(drawn);
        return `${style.outlineStyle} ${style.outlineWidth}`;
      });
      expect(ring).toBe('solid 2px');
    }
  });

  test('sign out, then sign in again', async ({ page }) => {
    const email = uniqueEmail('signin');
    await signUp(page, email);
    await page.getByRole('link', { name: 'Sign out' }).first().click();
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByRole('link', { name: 'Sign In' }).first()).toBeVisible();
    await expectAccessible(page);

    await page.getByLabel('E-mail').fill(email);
    await page.getByRole('textbox', { name: 'Password', exact: true }).fill('Wrong-Password-1!');
    await page.getByRole('button', { name: /sign in/i }).click();
    await expect(page.getByText('Invalid e-mail or password.')).toBeVisible();

    await signIn(page, email);
    await expect(page.getByText(`Hello, ${email}`).first()).toBeVisible();
  });

  test('forgot password, reset through the e-mailed link, sign in with the new password', async ({
    page,
    request,
  }) => {
    const email = uniqueEmail('reset');
    await signUp(page, email);
    await page.getByRole('link', { name: 'Sign out' }).first().click();
    await expect(page).toHaveURL(/\/login$/);

    await page.getByRole('link', { name: 'Forgot your Password' }).click();
    await expect(page).toHaveURL(/\/forgotPassword$/);
    await expectAccessible(page);
    await page.getByLabel('Email').fill(email);
    const submit = page.getByRole('button', { name: /send|submit|reset/i });
    await expect(submit).toBeEnabled();
    await submit.click();
    await expect(
      page.getByText(
        'If an account exists for this e-mail address, we have sent it a link to reset the password.',
      ),
    ).toBeVisible();

    const link = await linkFromOutbox(request, email, 'Reset your RateLens password');
    await page.goto(link);
    await expectAccessible(page);
    const newPassword = 'Brand-New-Pass-7&';
    await page.getByLabel('New Password').fill(newPassword);
    await page.getByLabel('Confirm Password').fill('Mismatch-Pass-7&');
    await expect(page.getByText('Password and Confirm Password must be same.')).toBeVisible();
    await page.getByLabel('Confirm Password').fill(newPassword);
    await page.getByRole('button', { name: /reset|save|submit/i }).click();
    await expect(
      page.getByText('Your password has been reset. You can now sign in with your new password.'),
    ).toBeVisible();

    await page.goto('/login');
    await page.getByLabel('E-mail').fill(email);
    await page.getByRole('textbox', { name: 'Password', exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: /sign in/i }).click();
    await expect(page.getByText('Invalid e-mail or password.')).toBeVisible();
    await signIn(page, email, newPassword);
  });

  test('the sign-up form lists every broken password rule in the spec’s words', async ({
    page,
  }) => {
    await page.goto('/registration');
    await expectAccessible(page);
    await page.getByRole('textbox', { name: 'Password', exact: true }).fill('abc');
    await page.getByRole('textbox', { name: 'Password', exact: true }).blur();
    await expect(
      page.getByText("Password must have at least one uppercase ('A'-'Z')."),
    ).toBeVisible();
    await expect(
      page.getByText('Password must have at least one special character.'),
    ).toBeVisible();
    await page
      .getByRole('button', { name: /Terms and Conditions/i })
      .first()
      .click();
    const dialog = page.getByRole('dialog', { name: 'Terms and Conditions' });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByText(/Pennsylvania/).first()).toBeVisible();
    await expectAccessible(page);
  });
});
