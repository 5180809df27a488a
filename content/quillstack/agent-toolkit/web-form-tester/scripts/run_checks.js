#!/usr/bin/env node
// Basic web form checks with Playwright.
// Usage: node scripts/run_checks.js <url> [--headed]
const fs = require('fs');
const { chromium } = require('playwright');

async function main() {
  const url = process.argv[2];
  if (!url) {
    console.error('usage: node scripts/run_checks.js <url> [--headed]');
    process.exit(2);
  }
  const headless = !process.argv.includes('--headed');
  fs.mkdirSync('screenshots', { recursive: true });

  const browser = await chromium.launch({ headless });
  const page = await browser.newPage();
  const results = [];
  try {
    await page.goto(url, { waitUntil: 'domcontentloaded' });
    const form = page.locator('form').first();
    if ((await form.count()) === 0) throw new Error('no <form> found on the page');

    // 1. The empty form must not be valid if it has required fields.
    const required = await form.locator('[required]').count();
    const emptyValid = await form.evaluate((f) => f.checkValidity());
    results.push({ check: 'empty form blocked', pass: required === 0 || !emptyValid });
    await page.screenshot({ path: 'screenshots/01-empty.png', fullPage: true });

    // 2. Fill text-like fields with invalid values and try to submit.
    const fields = form.locator('input[type=email], input[type=text], input[type=tel], input[type=url], textarea');
    for (let i = 0; i < (await fields.count()); i++) {
      await fields.nth(i).fill('not valid @@');
    }
    await form.locator('[type=submit]').first().click({ timeout: 5000 }).catch(() => {});
    await page.screenshot({ path: 'screenshots/02-invalid.png', fullPage: true });

    // 3. Some validation feedback should be visible (native or custom).
    const invalidCount = await form.locator(':invalid').count();
    const messages = await page.locator('[role=alert], .error, .invalid-feedback').count();
    results.push({ check: 'validation feedback shown', pass: invalidCount > 0 || messages > 0 });
  } finally {
    await browser.close();
  }

  for (const r of results) console.log(`${r.pass ? 'PASS' : 'FAIL'}  ${r.check}`);
  process.exit(results.every((r) => r.pass) ? 0 : 1);
}

main().catch((err) => {
  console.error(`error: ${err.message}`);
  process.exit(2);
});
