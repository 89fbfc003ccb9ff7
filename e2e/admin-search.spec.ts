import { expect, test } from '@playwright/test';
import {
  adminRequestHeaders,
  createAdmin,
  expectAccessible,
  expectNoPageOverflow,
  signIn,
  signUp,
  uniqueEmail,
} from './support.ts';

test.describe('rate search administration', () => {
  test('an admin adds an organisation with a member, edits it, and deletes it', async ({
    page,
  }) => {
    const admin = uniqueEmail('admin-org');
    const account = uniqueEmail('employer');
    const member = uniqueEmail('member');
    const second = uniqueEmail('member');
    const name = `Demo Employer ${account.slice(9, 17)}`;
    await createAdmin(admin);
    await signIn(page, admin);

    await page.getByRole('link', { name: 'Organisations', exact: true }).first().click();
    await expect(page).toHaveURL(/\/admin\/organisations$/);
    await expect(page.getByRole('heading', { name: 'Organisations', level: 1 })).toBeVisible();
    await expect(page).toHaveTitle('Organisations | RateLens');
    await expectAccessible(page);

    // Add, with the keyboard-reachable modal form.
    await page.getByRole('button', { name: 'Add organisation' }).click();
    const add = page.getByRole('dialog', { name: 'Add organisation' });
    await expect(add.getByRole('textbox', { name: /^Name/ })).toBeFocused();
    await add.getByRole('textbox', { name: /^Name/ }).fill(name);
    await add.getByRole('textbox', { name: /^Account e-mail/ }).fill(account);
    await add.getByRole('checkbox', { name: 'OCR access' }).check();
    await add.getByRole('textbox', { name: /^Member e-mails/ }).fill(member.toUpperCase());
    await expectAccessible(page);
    await add.getByRole('button', { name: 'Add organisation' }).click();
    await expect(page.getByText(`${name} was added.`)).toBeVisible();
    await expect(add).toBeHidden();

    const row = page.getByRole('row').filter({ hasText: name });
    await expect(row.getByRole('cell')).toHaveText([
      account,
      'Yes',
      'Yes',
      'No',
      '1',
      'EditDelete',
    ]);

    // The server keeps what was saved: its own list names the member, in lower case.
    const listed = await page.request.get('/api/admin/organisations', {
      headers: await adminRequestHeaders(page),
    });
    const organisation = ((await listed.json()) as { name: string; memberEmails: string[] }[]).find(
      (o) => o.name === name,
    );
    expect(organisation?.memberEmails).toEqual([member]);

    // A member of this organisation cannot be added to another one: the server's 409 is shown.
    await page.getByRole('button', { name: 'Add organisation' }).click();
    const clash = page.getByRole('dialog', { name: 'Add organisation' });
    await clash.getByRole('textbox', { name: /^Name/ }).fill(`${name} Other`);
    await clash.getByRole('textbox', { name: /^Account e-mail/ }).fill(uniqueEmail('other'));
    await clash.getByRole('textbox', { name: /^Member e-mails/ }).fill(member);
    await clash.getByRole('button', { name: 'Add organisation' }).click();
    await expect(clash.getByRole('alert')).toHaveText(
      `${member} is already a member of another organisation.`,
    );
    await clash.getByRole('button', { name: 'Cancel' }).click();
    await expect(clash).toBeHidden();

    // Edit: a new name, a second member, the employer pays for OCR.
    await page.getByRole('button', { name: `Edit ${name}` }).click();
    const edit = page.getByRole('dialog', { name: 'Edit organisation' });
    await expect(edit.getByRole('textbox', { name: /^Member e-mails/ })).toHaveValue(member);
    await edit.getByRole('textbox', { name: /^Name/ }).fill(`${name} West`);
    await edit.getByRole('textbox', { name: /^Member e-mails/ }).fill(`${member}, ${second}`);
    await edit.getByRole('checkbox', { name: 'Employer pays for OCR' }).check();
    await edit.getByRole('button', { name: 'Save changes' }).click();
    await expect(page.getByText(`${name} West was saved.`)).toBeVisible();

    await page.reload();
    const edited = page.getByRole('row').filter({ hasText: `${name} West` });
    await expect(edited.getByRole('cell')).toHaveText([
      account,
      'Yes',
      'Yes',
      'Yes',
      '2',
      'EditDelete',
    ]);

    // At 375 px: one card per organisation, nothing wider than the screen.
    await page.setViewportSize({ width: 375, height: 740 });
    const card = page.getByRole('listitem').filter({ hasText: `${name} West` });
    await expect(card).toContainText('2 members');
    await expect(page.getByRole('table')).toBeHidden();
    await expectNoPageOverflow(page);
    await expectAccessible(page);

    // Delete, after the confirmation.
    await card.getByRole('button', { name: `Delete ${name} West` }).click();
    await page
      .getByRole('dialog', { name: 'Delete organisation' })
      .getByRole('button', { name: 'Yes, delete' })
      .click();
    await expect(page.getByText(`${name} West was deleted.`)).toBeVisible();
    await expect(card).toHaveCount(0);
  });

  test('an admin changes the plan design, sees it kept after a reload, and resets it', async ({
    page,
  }) => {
    const admin = uniqueEmail('admin-plan');
    await createAdmin(admin);
    await signIn(page, admin);

    await page.getByRole('link', { name: 'Plan design', exact: true }).first().click();
    await expect(page).toHaveURL(/\/admin\/plan-design$/);
    await expect(page.getByRole('heading', { name: 'Plan design', level: 1 })).toBeVisible();
    await expect(page).toHaveTitle('Plan design | RateLens');
    const coinsurance = page.getByRole('textbox', { name: /^Coinsurance/ });
    await expect(coinsurance).toHaveValue('20');
    await expectAccessible(page);

    const preview = page.getByRole('region', { name: 'Preview' });
    await coinsurance.fill('35');
    await expect(preview).toContainText('you pay 35% of the negotiated rate');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(page.getByText('The plan design was saved.')).toBeVisible();

    await page.reload();
    await expect(coinsurance).toHaveValue('35');
    await expect(preview).toContainText('you pay 35% of the negotiated rate');
    const saved = await page.request.get('/api/OobRates/getPlanDesign');
    expect(((await saved.json()) as { coinsurance: number }).coinsurance).toBe(0.35);

    // A value out of range is refused on the field, before anything is sent.
    await coinsurance.fill('150');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(page.getByText('Enter a percentage from 0 to 100.')).toBeVisible();
    await expect(coinsurance).toHaveAttribute('aria-invalid', 'true');

    // Back to the 2026 defaults, for the other tests' estimates too.
    await page.getByRole('button', { name: 'Reset to the 2026 defaults' }).click();
    await expect(page.getByText('These are the 2026 defaults.')).toBeVisible();
    await expect(page.getByRole('textbox', { name: /^Deductible, single/ })).toHaveValue('1,700');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(page.getByText('The plan design was saved.')).toBeVisible();
    await page.reload();
    await expect(coinsurance).toHaveValue('20');

    await page.setViewportSize({ width: 375, height: 740 });
    await expect(coinsurance).toBeVisible();
    await expectNoPageOverflow(page);
    await expectAccessible(page);
  });

  test('a web user is refused the organisations and the plan design', async ({ page }) => {
    await signUp(page, uniqueEmail('not-admin'));
    await expect(page.getByRole('link', { name: 'Organisations', exact: true })).toHaveCount(0);
    await page.goto('/admin/organisations');
    await expect(page.getByText('You do not have access to this page.')).toBeVisible();
    // Each page load rotates the refresh token once; let it land before loading the next page.
    await page.waitForLoadState('networkidle');
    await page.goto('/admin/plan-design');
    await expect(page.getByText('You do not have access to this page.')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Save', exact: true })).toHaveCount(0);
  });
});
