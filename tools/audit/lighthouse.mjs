// Lighthouse's mobile run of one page, signed in when a session cookie is given.
//
//   CHROME_PATH=/usr/bin/chromium node lighthouse.mjs URL REPORT.json [COOKIE_NAME COOKIE_VALUE]
//
// The command-line tool can only add a Cookie header to HTTP requests, so a page that
// opens a WebSocket (the table, the notifications) would open it signed out; here the
// cookie is set in the browser itself, as a signed-in person's browser holds it.
import fs from 'node:fs';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import puppeteer from 'puppeteer-core';

const [url, reportPath, cookieName, cookieValue] = process.argv.slice(2);
if (!url || !reportPath) {
  console.error('usage: node lighthouse.mjs URL REPORT.json [COOKIE_NAME COOKIE_VALUE]');
  process.exit(2);
}
const chrome = await chromeLauncher.launch({
  chromePath: process.env.CHROME_PATH,
  chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu'],
});
try {
  const browser = await puppeteer.connect({browserURL: `http://127.0.0.1:${chrome.port}`});
  const page = await browser.newPage();
  if (cookieName) {
    await page.setCookie({name: cookieName, value: cookieValue, url});
  }
  const result = await lighthouse(url, {
    port: chrome.port,
    output: 'json',
    logLevel: 'error',
    onlyCategories: ['performance', 'accessibility', 'best-practices', 'seo'],
  }, undefined, page);
  fs.writeFileSync(reportPath, result.report);
  await browser.disconnect();
} finally {
  chrome.kill();
}
