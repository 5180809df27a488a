#!/usr/bin/env node
// Checks a built catalog site in the system Chromium, driven by playwright-core.
//
//   node check-site.mjs SITE_DIR [--chromium PATH] [--checks pages,search,copy,keyboard,axe,screenshots]
//                                [--port N] [--mount /SUB/PATH/] [--screenshots DIR] [--label NAME]
//                                [--skill OWNER/REPO/SKILL] [--search WORD --expect TITLE] [--concurrency N]
//
// Serves SITE_DIR on 127.0.0.1 itself (under --mount, as GitHub Pages serves a project site),
// runs the checks, prints one JSON report on stdout and exits 1 when any check failed (2 on a
// usage error or when the browser cannot start). 404.html links to the site's assets by
// absolute URL, so the site should be built with base_url http://127.0.0.1:PORT/SUB/PATH/.

import http from "node:http";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createRequire } from "node:module";
import { chromium } from "playwright-core";

const ALL_CHECKS = ["pages", "search", "copy", "keyboard", "axe", "screenshots"];
// Chromium's background services dial out; on a closed network their refused connections would
// read as failures of the page, so they are switched off.
const LAUNCH_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];
const HERE = path.dirname(fileURLToPath(import.meta.url));

function usage(message) {
  process.stderr.write(`check-site: ${message}\n`);
  process.exit(2);
}

function parseArgs(argv) {
  const opts = {
    site: null,
    chromium: process.env.CHROMIUM || "/usr/bin/chromium",
    checks: ALL_CHECKS,
    screenshots: null,
    label: "site",
    skill: null,
    search: null,
    expect: null,
    concurrency: 4,
    port: 0,
    mount: "/",
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const value = () => {
      if (i + 1 >= argv.length) usage(`${arg} needs a value`);
      return argv[++i];
    };
    switch (arg) {
      case "--chromium": opts.chromium = value(); break;
      case "--checks": opts.checks = value().split(",").filter(Boolean); break;
      case "--screenshots": opts.screenshots = value(); break;
      case "--label": opts.label = value(); break;
      case "--skill": opts.skill = value(); break;
      case "--search": opts.search = value(); break;
      case "--expect": opts.expect = value(); break;
      case "--port": opts.port = Number(value()); break;
      case "--mount": opts.mount = ("/" + value() + "/").replace(/\/+/g, "/"); break;
      case "--concurrency": opts.concurrency = Math.max(1, Number(value()) || 1); break;
      default:
        if (arg.startsWith("--") || opts.site) usage(`unexpected argument ${arg}`);
        opts.site = path.resolve(arg);
    }
  }
  if (!opts.site) usage("no site folder given");
  if (!fs.statSync(opts.site, { throwIfNoEntry: false })?.isDirectory()) usage(`${opts.site} is not a folder`);
  for (const c of opts.checks) if (!ALL_CHECKS.includes(c)) usage(`unknown check ${c}`);
  if (opts.checks.includes("screenshots") && !opts.screenshots) usage("--screenshots DIR is needed for screenshots");
  return opts;
}

// ---- Static server: what a static host does, no more ----

const TYPES = {
  ".html": "text/html; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".json": "application/json",
  ".xml": "application/xml",
  ".txt": "text/plain; charset=utf-8",
  ".md": "text/plain; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".gif": "image/gif",
  ".webp": "image/webp",
  ".ico": "image/x-icon",
  ".woff2": "font/woff2",
};

function serve(root, port, mount) {
  const server = http.createServer((req, res) => {
    let urlPath;
    try {
      urlPath = decodeURIComponent(new URL(req.url, "http://127.0.0.1").pathname);
    } catch {
      res.writeHead(400).end();
      return;
    }
    // Outside the mount point is another site: nothing of this one, not even its 404 page.
    if (!(urlPath + "/").startsWith(mount)) {
      res.writeHead(404, { "Content-Type": "text/plain; charset=utf-8" }).end("Not found\n");
      return;
    }
    const inMount = "/" + urlPath.slice(mount.length);
    const send = (status, file, extra = {}) => {
      const type = TYPES[path.extname(file).toLowerCase()] || "application/octet-stream";
      res.writeHead(status, { "Content-Type": type, "Cache-Control": "no-store", ...extra });
      if (req.method === "HEAD") res.end();
      else fs.createReadStream(file).pipe(res);
    };
    const notFound = () => {
      const page = path.join(root, "404.html");
      if (fs.existsSync(page)) send(404, page);
      else res.writeHead(404, { "Content-Type": "text/plain; charset=utf-8" }).end("Not found\n");
    };
    if (req.method !== "GET" && req.method !== "HEAD") {
      res.writeHead(405).end();
      return;
    }
    const file = path.join(root, inMount);
    // A path that leaves the root (after decoding) is a miss, never a read outside the site.
    if (urlPath.includes("\0") || (file !== root && !file.startsWith(root + path.sep))) return notFound();
    const stat = fs.statSync(file, { throwIfNoEntry: false });
    if (stat?.isDirectory()) {
      // Relative links on a folder's page need the trailing slash, as static hosts redirect.
      if (!urlPath.endsWith("/")) {
        res.writeHead(301, { Location: encodeURI(urlPath) + "/" }).end();
        return;
      }
      const index = path.join(file, "index.html");
      return fs.existsSync(index) ? send(200, index) : notFound();
    }
    return stat?.isFile() ? send(200, file) : notFound();
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve({ server, base: `http://127.0.0.1:${server.address().port}${mount}` }));
  });
}

function htmlPages(root) {
  const pages = [];
  const walk = (dir) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.isFile() && entry.name.endsWith(".html")) pages.push(path.relative(root, full).split(path.sep).join("/"));
    }
  };
  walk(root);
  return pages;
}

// The URL a static host serves a file at: folders end in "/", so relative links resolve.
function urlOf(base, rel) {
  const clean = rel === "index.html" ? "" : rel.endsWith("/index.html") ? rel.slice(0, -"index.html".length) : rel;
  return base + clean.split("/").map(encodeURIComponent).join("/");
}

// ---- Watching a page ----

// Runs before any script of the page: every sink a payload would reach records a hit instead.
// Fixtures call window.__pwned directly; the rest are the usual proof-of-execution calls. eval
// stays as it is: the driver evaluates its own code through it, and the pages' CSP forbids it
// (a call would be reported as a violation).
const SENTINEL = `(() => {
  const hits = [];
  const record = (sink, args) => {
    let detail = "";
    try { detail = Array.from(args).map(String).join(" ").slice(0, 200); } catch (e) {}
    hits.push(sink + "(" + detail + ")");
    try { window.__catalogSentinel(sink, detail); } catch (e) {}
  };
  Object.defineProperty(window, "__pwnedHits", { value: hits });
  const trap = (name) => {
    const f = function () { record(name, arguments); };
    try { Object.defineProperty(window, name, { value: f, writable: false, configurable: false }); } catch (e) {}
  };
  ["__pwned", "alert", "confirm", "prompt", "print", "open", "showModalDialog"].forEach(trap);
  for (const [obj, name] of [[Document.prototype, "write"], [Document.prototype, "writeln"]]) {
    try { Object.defineProperty(obj, name, { value: function () { record("document." + name, arguments); } }); } catch (e) {}
  }
  const setters = [[window, "setTimeout"], [window, "setInterval"]];
  for (const [obj, name] of setters) {
    const real = obj[name];
    obj[name] = function (handler) {
      if (typeof handler === "string") { record(name + "(string)", [handler]); return 0; }
      return real.apply(this, arguments);
    };
  }
  document.addEventListener("securitypolicyviolation", (e) => {
    try { window.__catalogCsp(e.violatedDirective + " blocked " + (e.blockedURI || "inline") +
      (e.sourceFile ? " at " + e.sourceFile + ":" + e.lineNumber : "") + (e.sample ? " sample " + e.sample : "")); } catch (err) {}
  }, true);
})();`;

// What must never be in a page's DOM once it has loaded: script elements other than the site's
// own files and JSON-LD, event-handler attributes, and script URLs in links, sources or forms.
function scanDom() {
  const out = [];
  const describe = (el) => "<" + el.tagName.toLowerCase() + (el.id ? "#" + el.id : "") + ">";
  const scriptUrl = (value) => /^\s*(javascript|vbscript|data\s*:\s*text\/html)/i.test(value.replace(/[\u0000-\u0020]/g, ""));
  for (const el of document.querySelectorAll("*")) {
    if (el.tagName === "SCRIPT") {
      const type = (el.getAttribute("type") || "").toLowerCase();
      const src = el.getAttribute("src") || "";
      const own = /(^|\/)static\/[a-z0-9_-]+\.js$/.test(src) && !el.textContent.trim();
      if (!own && type !== "application/ld+json") out.push("script element " + (src || el.textContent.slice(0, 80)));
    }
    for (const attr of el.attributes) {
      const name = attr.name.toLowerCase();
      if (name.startsWith("on")) out.push(`${describe(el)} has handler ${name}=${attr.value.slice(0, 80)}`);
      if (["href", "src", "action", "formaction", "xlink:href", "data", "srcdoc"].includes(name)) {
        if (name === "srcdoc" || scriptUrl(attr.value)) out.push(`${describe(el)} has ${name}=${attr.value.slice(0, 80)}`);
      }
    }
  }
  return out;
}

function isAllowedRequest(url, base) {
  if (url.startsWith("data:") || url.startsWith("blob:")) return true;
  try {
    const u = new URL(url);
    return u.protocol === "http:" && u.host === new URL(base).host;
  } catch {
    return false;
  }
}

class Run {
  constructor(base) {
    this.base = base;
    this.failures = [];
    this.checks = {};
  }
  // One failure is often seen twice (a CSP violation is also a console error): keep one of each.
  fail(check, page, message) {
    const key = JSON.stringify([check, page, message]);
    if (this.seen?.has(key)) return;
    (this.seen ||= new Set()).add(key);
    this.failures.push({ check, page, message });
  }
  // The page a frame shows, as the site-relative path the report uses.
  relative(url) {
    return url.startsWith(this.base) ? url.slice(this.base.length) : url;
  }
  passed(check, details) {
    this.checks[check] = { ok: !this.failures.some((f) => f.check === check), ...details };
  }
}

// Attaches every listener that turns a page's misbehaviour into a failure of `check`.
// `where()` names the page being looked at, since one tab visits many.
async function watch(page, run, check, where, allowStatus = () => false) {
  await page.exposeBinding("__catalogSentinel", (source, sink, detail) => {
    run.fail(check, run.relative(source.frame.url()), `script from the page reached ${sink}(${detail})`);
  });
  await page.exposeBinding("__catalogCsp", (_source, what) => {
    run.fail(check, where(), `Content-Security-Policy violation: ${what}`);
  });
  await page.addInitScript(SENTINEL);
  page.on("dialog", (dialog) => {
    run.fail(check, where(), `dialog ${dialog.type()}: ${dialog.message()}`);
    dialog.dismiss().catch(() => {});
  });
  page.on("pageerror", (error) => run.fail(check, where(), `page error: ${error.message}`));
  page.on("console", (msg) => {
    if (msg.type() !== "error") return;
    // The browser logs every failed load too, including the favicon.ico it asks for on its own:
    // the request and response listeners report the page's own failures, with their URL.
    if (msg.text().startsWith("Failed to load resource:")) return;
    run.fail(check, where(), `console error: ${msg.text()}`);
  });
  // The page each request was made for: going on to the next page aborts what the last one
  // still had in flight (the favicon, most often), which is no failure of either page.
  const madeFor = new WeakMap();
  page.on("request", (request) => {
    const url = request.url();
    madeFor.set(request, where());
    if (!isAllowedRequest(url, run.base)) run.fail(check, where(), `request to ${url.slice(0, 200)}`);
  });
  page.on("requestfailed", (request) => {
    const url = request.url();
    const leftBehind = request.failure()?.errorText === "net::ERR_ABORTED" && madeFor.get(request) !== where();
    if (isAllowedRequest(url, run.base) && !url.startsWith("data:") && !leftBehind) {
      run.fail(check, where(), `request failed: ${url} (${request.failure()?.errorText})`);
    }
  });
  page.on("response", (response) => {
    const url = response.url();
    if (url.startsWith(new URL(run.base).origin + "/") && response.status() >= 400 && !allowStatus(url, response.status())) {
      run.fail(check, where(), `${response.status()} for ${url}`);
    }
  });
  page.on("popup", (popup) => run.fail(check, where(), `opened a window at ${popup.url()}`));
}

// Lets a page finish what it started on load (deferred scripts, fetches, timers).
async function settle(page) {
  await page.waitForLoadState("load");
  await page.waitForLoadState("networkidle", { timeout: 5000 }).catch(() => {});
}

async function pageHits(page) {
  return page.evaluate(() => Array.from(window.__pwnedHits || []));
}

// ---- The checks ----

async function checkPages(browser, run, pages, concurrency) {
  const context = await browser.newContext({ serviceWorkers: "block" });
  const queue = pages.slice();
  const worker = async () => {
    const page = await context.newPage();
    let current = null;
    // The one miss asked for on purpose is answered 404 with the site's 404 page.
    await watch(page, run, "pages", () => current, (url, status) => status === 404 && url.includes("/no-such-page-"));
    for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
      const url = urlOf(run.base, file);
      const rel = run.relative(url);
      current = rel;
      try {
        const response = await page.goto(url, { waitUntil: "load", timeout: 20000 });
        const expected = file.startsWith("no-such-page-") ? 404 : 200;
        if (!response || response.status() !== expected) {
          run.fail("pages", rel, `HTTP ${response?.status()}`);
        }
        await settle(page);
        for (const problem of await page.evaluate(scanDom)) run.fail("pages", rel, `unsafe markup: ${problem}`);
        // Handlers that only run on interaction get their chance: hover and focus everything.
        await page.evaluate(() => {
          for (const el of document.body.querySelectorAll("*")) {
            for (const type of ["mouseover", "mouseenter", "focus", "animationstart"]) {
              el.dispatchEvent(new Event(type, { bubbles: false }));
            }
          }
        });
        // The sentinel's own record, in case a report through the binding is still on its way.
        for (const hit of await pageHits(page)) run.fail("pages", run.relative(page.url()), `script from the page reached ${hit}`);
      } catch (error) {
        run.fail("pages", rel, `could not load: ${error.message.split("\n")[0]}`);
      }
    }
    current = "(after last page)";
    await page.close();
  };
  // 404.html is served for a miss too: ask for a path that does not exist.
  queue.push("no-such-page-" + process.pid + "/index.html");
  const started = Date.now();
  await Promise.all(Array.from({ length: Math.min(concurrency, queue.length) }, worker));
  await context.close();
  run.passed("pages", { pages: pages.length, ms: Date.now() - started });
}

// The skills the site lists, from its own JSON API: the whole records, descriptions with them,
// are in the repositories' files that the index names.
function readSkills(site) {
  const file = path.join(site, "api", "skills.json");
  if (!fs.existsSync(file)) return [];
  const files = new Set((JSON.parse(fs.readFileSync(file, "utf8")).skills || []).map((s) => s.api));
  return [...files].flatMap((api) => JSON.parse(fs.readFileSync(path.join(site, api), "utf8")).skills || []);
}

function wordsOf(text) {
  return (text || "").toLowerCase().match(/\p{L}{4,}/gu) || [];
}

// A word of one skill's description that few other skills use, so the skill ranks in the
// first results whatever the catalog's size.
function pickSearch(skills, opts) {
  if (opts.search) return { word: opts.search, title: opts.expect };
  const df = new Map();
  for (const s of skills) for (const w of new Set(wordsOf(`${s.title} ${s.description}`))) df.set(w, (df.get(w) || 0) + 1);
  let best = null;
  for (const s of skills) {
    for (const w of new Set(wordsOf(s.description))) {
      if (wordsOf(s.title).includes(w)) continue;
      const n = df.get(w);
      if (!best || n < best.n) best = { word: w, title: s.title, n };
    }
  }
  return best;
}

// `word` with two neighbouring letters swapped, such that no term of the index starts with it
// (the search then looks one slip away), or null when every swap starts some term.
function typoOf(word, site) {
  if (!/^[a-z]{5,}$/.test(word)) return null;
  const shard = JSON.parse(fs.readFileSync(path.join(site, "search", "terms", word.slice(0, 2) + ".json"), "utf8"));
  for (let i = 2; i + 1 < word.length; i++) {
    if (word[i] === word[i + 1]) continue;
    const slip = word.slice(0, i) + word[i + 1] + word[i] + word.slice(i + 2);
    if (!Object.keys(shard).some((term) => term.startsWith(slip))) return slip;
  }
  return null;
}

async function checkSearch(browser, run, skills, opts) {
  const pick = pickSearch(skills, opts);
  if (!pick) {
    run.fail("search", "search/", "no skill with a description to search for");
    return run.passed("search", {});
  }
  const context = await browser.newContext({ serviceWorkers: "block" });
  const page = await context.newPage();
  // search.js asks only for term shards the index lists: any 404 is a failure.
  await watch(page, run, "search", () => "search/");
  await page.goto(run.base + "search/", { waitUntil: "load" });
  await settle(page);
  const box = page.locator("#q");
  const results = page.locator("#search-results .card-title");
  // Types `word` into the search box and returns the result titles once `title` is among them,
  // or what the page shows after 10 s (reported by the caller).
  const typed = async (word) => {
    await box.fill("");
    await box.pressSequentially(word, { delay: 30 });
    await page
      .waitForFunction(
        (title) => Array.from(document.querySelectorAll("#search-results .card-title")).some((a) => a.textContent === title),
        pick.title,
        { timeout: 10000 },
      )
      .catch(() => {});
    return results.allTextContents();
  };
  await box.click();
  const titles = await typed(pick.word);
  const status = await page.locator("#search-status").textContent();
  if (!titles.includes(pick.title)) {
    run.fail("search", "search/", `typing "${pick.word}" did not list "${pick.title}"; results: ${JSON.stringify(titles.slice(0, 10))}, status: ${status}`);
  }
  // The result links to a page that exists.
  const href = await results.filter({ hasText: pick.title }).first().getAttribute("href").catch(() => null);
  if (href) {
    const target = await page.evaluate((h) => new URL(h, location.href).href, href);
    const response = await page.request.get(target);
    if (response.status() !== 200) run.fail("search", "search/", `result link ${target} gives HTTP ${response.status()}`);
  }
  // One typing slip (two letters swapped) still finds the skill.
  const slip = typoOf(pick.word, opts.site);
  let slipTitles = null;
  if (slip) {
    slipTitles = await typed(slip);
    if (!slipTitles.includes(pick.title)) {
      run.fail("search", "search/", `typing "${slip}" (for "${pick.word}") did not list "${pick.title}"; results: ${JSON.stringify(slipTitles.slice(0, 10))}`);
    }
  }
  // A word no term starts with asks for nothing that is not there (watched above).
  await box.fill("");
  await box.pressSequentially("qqzx", { delay: 30 });
  await page.waitForFunction(() => document.getElementById("search-status").textContent === "No skills match.", null, { timeout: 10000 }).catch(() => {
    run.fail("search", "search/", "a query without a match did not say so");
  });
  await context.close();
  run.passed("search", { word: pick.word, expected: pick.title, results: titles.length, status, slip, slipResults: slipTitles?.length });
}

// The skill page with the most markup: it has the most sections, commands and payload text to
// look at.
function skillPath(skills, opts, site) {
  let id = opts.skill;
  if (!id) {
    let most = -1;
    for (const s of skills) {
      const size = fs.statSync(path.join(site, s.id, "index.html"), { throwIfNoEntry: false })?.size ?? -1;
      if (size > most) [id, most] = [s.id, size];
    }
  }
  return id ? id.replace(/\/?$/, "/") : null;
}

// The first skill page that shows the catalog editors' notes, if any does.
function editedSkillPath(skills, site) {
  for (const s of skills) {
    const file = path.join(site, s.id, "index.html");
    if (fs.existsSync(file) && /id="?editors"?[\s>]/.test(fs.readFileSync(file, "utf8"))) return s.id.replace(/\/?$/, "/");
  }
  return null;
}

async function checkCopy(browser, run, skillUrl) {
  const context = await browser.newContext({ serviceWorkers: "block" });
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: run.base.replace(/\/$/, "") });
  const page = await context.newPage();
  await watch(page, run, "copy", () => skillUrl);
  await page.goto(run.base + skillUrl, { waitUntil: "load" });
  await settle(page);
  const copied = [];
  const copyAll = async (what) => {
    const buttons = page.locator("#install button.copy:visible");
    const count = await buttons.count();
    if (count === 0) run.fail("copy", skillUrl, `no visible copy button in the install block (${what})`);
    for (let i = 0; i < count; i++) {
      const button = buttons.nth(i);
      const shown = await button.evaluate((b) => {
        const code = b.closest(".cmd").querySelector("code").cloneNode(true);
        code.querySelectorAll("[aria-hidden=true]").forEach((n) => n.remove());
        return code.textContent;
      });
      await page.evaluate(() => navigator.clipboard.writeText("(clipboard not written)"));
      await button.click();
      await page
        .waitForFunction((want) => navigator.clipboard.readText().then((t) => t === want), shown, { timeout: 3000, polling: 100 })
        .catch(() => {});
      const clip = await page.evaluate(() => navigator.clipboard.readText());
      copied.push(clip);
      if (clip !== shown) run.fail("copy", skillUrl, `clipboard holds ${JSON.stringify(clip)}, the page shows ${JSON.stringify(shown)}`);
      const label = await button.textContent();
      if (!/copied/i.test(label)) run.fail("copy", skillUrl, `button says ${JSON.stringify(label)} after a copy`);
    }
  };
  await copyAll("first agent");
  // Another agent picked: its command is shown and copied, and it is the agent shown on the next
  // skill page (the same page, loaded again).
  let remembered = null;
  const select = page.locator("#agent-pick");
  if ((await select.count()) === 1 && (await select.isVisible())) {
    const options = await select.locator("option").evaluateAll((os) => os.map((o) => o.value));
    const before = await page.locator("#install .cmd code").first().textContent();
    const chosen = options[1];
    await select.selectOption(chosen);
    const after = await page.locator("#install .cmd code").first().textContent();
    if (after === before) run.fail("copy", skillUrl, `picking ${chosen} left the command as it was: ${JSON.stringify(after)}`);
    await page.locator("#install details").first().evaluate((d) => { d.open = true; });
    await copyAll(chosen);
    await page.reload({ waitUntil: "load" });
    await settle(page);
    await page.waitForFunction(() => !document.getElementById("agent-pick").hidden, null, { timeout: 3000 }).catch(() => {});
    remembered = await select.inputValue();
    const again = await page.locator("#install .cmd code").first().textContent();
    if (remembered !== chosen) run.fail("copy", skillUrl, `the agent chosen (${chosen}) was not remembered: ${remembered} is shown`);
    if (again !== after) run.fail("copy", skillUrl, `the remembered agent's command is ${JSON.stringify(again)}, not ${JSON.stringify(after)}`);
  } else {
    run.fail("copy", skillUrl, "no agent picker in the install block");
  }
  await context.close();
  run.passed("copy", { page: skillUrl, copied, remembered });
}

// From the top of the page, Tab until focus is on the install block's agent picker; then an
// arrow key picks another agent, whose command is shown, and Tab goes on to its copy button.
async function checkKeyboard(browser, run, skillUrl) {
  const context = await browser.newContext({ serviceWorkers: "block" });
  const page = await context.newPage();
  await watch(page, run, "keyboard", () => skillUrl);
  await page.goto(run.base + skillUrl, { waitUntil: "load" });
  await settle(page);
  await page.waitForFunction(() => !document.getElementById("agent-pick")?.hidden, null, { timeout: 3000 }).catch(() => {});
  const state = () =>
    page.evaluate(() => {
      const el = document.activeElement;
      const onPicker = !!el && el.id === "agent-pick";
      const command = document.querySelector("#install .cmd code")?.textContent || "";
      const label = el ? (el.labels?.[0]?.textContent || el.textContent || el.id).trim() : "";
      return { onPicker, label, command, value: el?.value, tag: el ? el.tagName.toLowerCase() : "" };
    });
  let presses = 0;
  let now = await state();
  const path = [];
  while (!now.onPicker && presses < 150) {
    await page.keyboard.press("Tab");
    presses++;
    now = await state();
    path.push(now.label.slice(0, 30) || now.tag);
  }
  const details = { page: skillUrl, tabPresses: presses };
  if (!now.onPicker) {
    run.fail("keyboard", skillUrl, `Tab never reached the agent picker; focus went through ${JSON.stringify(path.slice(0, 40))}`);
    await context.close();
    return run.passed("keyboard", details);
  }
  const before = now;
  await page.keyboard.press("ArrowDown");
  const after = await state();
  details.from = before.value;
  details.to = after.value;
  if (!after.onPicker) run.fail("keyboard", skillUrl, "the arrow key moved focus off the agent picker");
  if (after.value === before.value || after.command === before.command) {
    run.fail("keyboard", skillUrl, `the arrow key did not pick another agent (${before.value} → ${after.value})`);
  }
  await page.keyboard.press("ArrowUp");
  const back = await state();
  if (back.value !== before.value || back.command !== before.command) run.fail("keyboard", skillUrl, "ArrowUp did not go back to the first agent");
  await page.keyboard.press("Tab");
  const next = await page.evaluate(() => {
    const el = document.activeElement;
    return { inBlock: !!el?.closest("#install"), text: el?.textContent?.trim() };
  });
  details.afterPicker = next.text;
  if (!next.inBlock) run.fail("keyboard", skillUrl, `Tab from the picker went to ${JSON.stringify(next.text)}, out of the install block`);
  await context.close();
  run.passed("keyboard", details);
}

async function checkAxe(browser, run, targets) {
  const require = createRequire(import.meta.url);
  const axeSource = fs.readFileSync(require.resolve("axe-core/axe.min.js"), "utf8");
  const summary = {};
  // The stylesheet has a dark palette too: both must keep their contrast. A phone-wide page is
  // where wide content turns into regions that scroll sideways, and where the layout changes.
  const phone = { width: 390, height: 844 };
  const passes = [
    { mode: "light", options: { colorScheme: "light" }, pages: targets },
    { mode: "dark", options: { colorScheme: "dark" }, pages: targets },
    { mode: "phone", options: { colorScheme: "light", viewport: phone, isMobile: true }, pages: targets },
  ];
  for (const { mode, options, pages } of passes) {
    const context = await browser.newContext({ serviceWorkers: "block", ...options });
    for (const [name, rel] of pages) {
      if (rel === null) {
        run.fail("axe", name, "no such page in the site");
        continue;
      }
      const where = `${rel || "/"} (${mode})`;
      summary[where] = await axeOnePage(context, run, rel, where, axeSource);
    }
    await context.close();
  }
  run.passed("axe", { violations: summary });
}

async function axeOnePage(context, run, rel, where, axeSource) {
  const page = await context.newPage();
  await watch(page, run, "axe", () => rel, (url, status) => status === 404 && url.includes("/search/terms/"));
  await page.goto(run.base + rel, { waitUntil: "load" });
  await settle(page);
  // Evaluated over the DevTools protocol, which the page's CSP does not govern; a script tag
  // would be blocked by it (and reported as a violation).
  await page.evaluate(axeSource);
  const result = await page.evaluate(async () => {
    // eslint-disable-next-line no-undef
    const r = await axe.run(document, { resultTypes: ["violations"] });
    return r.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.slice(0, 5).map((n) => ({ target: n.target.join(" "), summary: n.failureSummary })),
      count: v.nodes.length,
    }));
  });
  for (const v of result) {
    if (v.impact === "serious" || v.impact === "critical") {
      run.fail("axe", where, `${v.impact} ${v.id}: ${v.help} — ${v.count} node(s): ${JSON.stringify(v.nodes)}`);
    }
  }
  await page.close();
  return result.map((v) => `${v.impact}: ${v.id} (${v.count})`);
}

// Each of `targets` ([name, page]) at desktop and phone width, the whole page, into
// LABEL-NAME-desktop.png and LABEL-NAME-phone.png; with each page's height, and a failure for
// content wider than the window.
async function checkScreenshots(browser, run, targets, opts) {
  fs.mkdirSync(opts.screenshots, { recursive: true });
  const files = [];
  const heights = {};
  for (const [mode, width, height] of [["desktop", 1280, 800], ["phone", 390, 844]]) {
    const context = await browser.newContext({ serviceWorkers: "block", viewport: { width, height }, isMobile: mode === "phone" });
    const page = await context.newPage();
    let current = "";
    await watch(page, run, "screenshots", () => current);
    for (const [name, rel] of targets) {
      if (rel === null) {
        run.fail("screenshots", name, "no such page in the site");
        continue;
      }
      current = `${rel || "/"} at ${width}px`;
      await shoot(page, run, rel, name, mode, width, opts, files, heights);
      if (name === "skill" && mode === "phone") await checkFirstScreen(page, run, rel, height, heights);
    }
    await context.close();
  }
  run.passed("screenshots", { files, heights });
}

// A skill page's first phone screen holds its install command: the command's first line ends
// within the window's height (a skill without a repository has no command to show).
async function checkFirstScreen(page, run, rel, height, heights) {
  await page.evaluate(() => window.scrollTo(0, 0));
  const line = await page.evaluate(() => {
    const code = document.querySelector("#install .cmd code");
    if (!code) return null;
    const first = code.getClientRects()[0];
    return first ? Math.round(first.bottom + window.scrollY) : null;
  });
  heights["skill phone, install command's first line"] = line;
  if (line !== null && line > height) {
    run.fail("screenshots", rel, `on a ${height}px phone screen the install command's first line ends at ${line}px, below the first screen`);
  }
}

async function shoot(page, run, rel, name, mode, width, opts, files, heights) {
    await page.goto(run.base + rel, { waitUntil: "load" });
    await settle(page);
    const file = path.join(opts.screenshots, `${opts.label}-${name}-${mode}.png`);
    heights[`${name} ${mode}`] = await page.evaluate(() => document.documentElement.scrollHeight);
    await page.screenshot({ path: file, fullPage: true });
    files.push(file);
    // Content wider than the window means a sideways scroll on a phone.
    const overflow = await page.evaluate(() => {
      const width = document.documentElement.clientWidth;
      const wide = [];
      for (const el of document.querySelectorAll("body *")) {
        const r = el.getBoundingClientRect();
        if (r.right > width + 1 && !el.closest(".table-wrap, pre, .markdown table")) {
          wide.push(`<${el.tagName.toLowerCase()}${el.className ? "." + String(el.className).split(" ")[0] : ""}> ${Math.round(r.right)}px`);
        }
      }
      return { scroll: document.documentElement.scrollWidth, width, wide: wide.slice(0, 5) };
    });
    if (overflow.scroll > overflow.width) {
      run.fail("screenshots", rel, `at ${width}px the page is ${overflow.scroll}px wide: ${JSON.stringify(overflow.wide)}`);
    }
}

// The first category page by name ("categories/NAME/"), or null in a catalog without one.
function firstCategory(site) {
  const dir = path.join(site, "categories");
  if (!fs.existsSync(dir)) return null;
  const names = fs.readdirSync(dir, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name).sort();
  return names.length ? `categories/${names[0]}/` : null;
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const started = Date.now();
  const { server, base } = await serve(opts.site, opts.port, opts.mount).catch((error) => usage(`cannot serve: ${error.message}`));
  const run = new Run(base);
  let browser;
  try {
    browser = await chromium.launch({ executablePath: opts.chromium, args: LAUNCH_ARGS, timeout: 60000 });
  } catch (error) {
    server.close();
    process.stdout.write(JSON.stringify({ ok: false, error: `browser did not start: ${error.message}` }, null, 2) + "\n");
    process.exit(2);
  }
  const pages = htmlPages(opts.site);
  const skills = readSkills(opts.site);
  const skill = skillPath(skills, opts, opts.site);
  const has = (c) => opts.checks.includes(c);
  const needSkill = (check) => {
    if (skill) return true;
    run.fail(check, null, "no skill page found (api/skills.json lists none that exists)");
    run.passed(check, {});
    return false;
  };
  try {
    if (has("pages")) await checkPages(browser, run, pages, opts.concurrency);
    if (has("search")) await checkSearch(browser, run, skills, opts);
    if (has("copy") && needSkill("copy")) await checkCopy(browser, run, skill);
    if (has("keyboard") && needSkill("keyboard")) await checkKeyboard(browser, run, skill);
    // The pages people land on: the home page, a skill, its repository, a category and search.
    const repo = skill ? skill.split("/").slice(0, 2).join("/") + "/" : null;
    const exists = (rel) => (rel !== null && fs.existsSync(path.join(opts.site, rel, "index.html")) ? rel : null);
    const targets = [
      ["home", exists("")],
      ["skill", exists(skill)],
      ["repository", exists(repo)],
      ["category", exists(firstCategory(opts.site))],
      ["search", exists("search/")],
    ];
    // A page with the editors' notes, whose section the page above may lack.
    const edited = editedSkillPath(skills, opts.site);
    const axeTargets = edited && edited !== skill ? [...targets, ["edited skill", edited]] : targets;
    if (has("axe")) await checkAxe(browser, run, axeTargets);
    if (has("screenshots") && needSkill("screenshots")) await checkScreenshots(browser, run, targets, opts);
  } catch (error) {
    run.fail("run", null, `the checks stopped: ${error.stack || error.message}`);
  } finally {
    await browser.close();
    server.close();
  }
  const report = {
    ok: run.failures.length === 0,
    site: opts.site,
    base,
    skill,
    ms: Date.now() - started,
    checks: run.checks,
    failures: run.failures,
  };
  process.stdout.write(JSON.stringify(report, null, 2) + "\n");
  process.exit(report.ok ? 0 : 1);
}

main();
