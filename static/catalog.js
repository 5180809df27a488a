// Progressive enhancement only: every page works without this file.
// Copy buttons: shown only when the Clipboard API is there to back them. A button copies the
// text of the code block beside it, less what is hidden from assistive technology (the "$ "
// prompt), so a page carries each command once.
(function () {
  "use strict";
  if (!navigator.clipboard) return;
  function shownText(code) {
    var copy = code.cloneNode(true);
    copy.querySelectorAll("[aria-hidden=true]").forEach(function (node) { node.remove(); });
    return copy.textContent;
  }
  document.querySelectorAll(".cmd button.copy").forEach(function (button) { button.hidden = false; });
  // One listener for every button, those the install block adds later included.
  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest(".cmd button.copy");
    var code = button && button.parentNode.querySelector("code");
    if (!code) return;
    navigator.clipboard.writeText(shownText(code)).then(
      function () { flash(button, "Copied"); },
      function () { flash(button, "Press Ctrl+C"); }
    );
  });
  function flash(button, text) {
    var old = button.textContent;
    button.textContent = text;
    setTimeout(function () { button.textContent = old; }, 1500);
  }
})();

// The install block: the agent is picked from the agents' table (static/agents.json), and the
// choice is kept in localStorage by the agent's id for every skill page. The copy of the folder
// by hand for the agent chosen is added from the same table (the agents page has it without
// script). The page carries the
// value of each placeholder of the templates, filled as the build fills them (quoted where the
// shell needs it), so the script only puts values for names: the command shown for any agent is
// the one the build would write. Without script, the first agent's command is shown and the
// agents page lists every agent's way and folder.
(function () {
  "use strict";
  var KEY = "catalog.agent";
  var block = document.querySelector("#install .install");
  var select = document.getElementById("agent-pick");
  if (!block || !select || !window.fetch) return;
  var command = block.querySelector(".cmd code");
  var note = block.querySelector(".agent-note");
  var how = block.querySelector("a.agent-how");
  function value(name, agent) {
    if (name === "project_dir") return agent.project_dir;
    if (name === "agent") return agent.name;
    var attribute = block.getAttribute("data-" + name.replace(/_/g, "-"));
    return attribute === null ? "{" + name + "}" : attribute;
  }
  function fill(template, agent) {
    return template.replace(/\{([a-z_]+)\}/g, function (_, name) { return value(name, agent); });
  }
  function firstWay(agent) {
    var path = block.getAttribute("data-path");
    return agent.ways.filter(function (way) { return !way.needs_path || path; })[0];
  }
  function setCommand(code, text) {
    var prompt = code.querySelector(".ps1");
    code.textContent = text;
    if (prompt) code.insertBefore(prompt, code.firstChild);
  }
  var byHand = null;
  // A disclosure holding the agent's copy by hand, made once and filled for each agent.
  function showByHand(agent) {
    var way = agent.ways.filter(function (w) { return w.by_hand; })[0];
    if (!byHand) {
      byHand = document.createElement("details");
      byHand.className = "more-cmds";
      var summary = document.createElement("summary");
      summary.textContent = "Copy the folder by hand";
      var cmd = document.createElement("div");
      cmd.className = "cmd";
      var pre = document.createElement("pre");
      pre.tabIndex = 0;
      var code = document.createElement("code");
      var ps1 = document.createElement("span");
      ps1.className = "ps1";
      ps1.setAttribute("aria-hidden", "true");
      ps1.textContent = "$ ";
      code.appendChild(ps1);
      pre.appendChild(code);
      var copy = document.createElement("button");
      copy.type = "button";
      copy.className = "copy";
      copy.textContent = "Copy";
      copy.hidden = !navigator.clipboard;
      cmd.appendChild(pre);
      cmd.appendChild(copy);
      byHand.appendChild(summary);
      byHand.appendChild(cmd);
      block.appendChild(byHand);
    }
    byHand.hidden = !way;
    if (way) setCommand(byHand.querySelector("code"), fill(way.command, agent));
  }
  function show(agents, id) {
    var agent = agents.filter(function (a) { return a.id === id; })[0];
    if (!agent) return false;
    var way = firstWay(agent);
    setCommand(command, fill(way.command, agent));
    if (note) note.textContent = fill(way.note, agent);
    block.querySelectorAll(".agent-name").forEach(function (node) { node.textContent = agent.name; });
    if (how) how.setAttribute("href", how.getAttribute("href").replace(/#.*$/, "#" + agent.id));
    showByHand(agent);
    select.value = agent.id;
    return true;
  }
  fetch(block.getAttribute("data-agents")).then(function (response) {
    if (!response.ok) throw new Error(response.status);
    return response.json();
  }).then(function (table) {
    var agents = table.agents;
    agents.forEach(function (agent) {
      var option = document.createElement("option");
      option.value = agent.id;
      option.textContent = agent.name;
      select.appendChild(option);
    });
    var saved = null;
    try { saved = localStorage.getItem(KEY); } catch (e) { saved = null; }
    if (!(saved && show(agents, saved))) showByHand(agents[0]);
    select.value = select.value || agents[0].id;
    select.hidden = false;
    select.addEventListener("change", function () {
      show(agents, select.value);
      try { localStorage.setItem(KEY, select.value); } catch (e) { /* storage refused: nothing kept */ }
    });
  }).catch(function () { /* the first agent's command stays, as without script */ });
})();

// Opened from a file (file://) rather than served: a link to a folder would show the folder's
// listing, so links and the search form are pointed at the folders' index.html, and one line
// says that search needs the site served (`catalog serve --open`).
(function () {
  "use strict";
  if (location.protocol !== "file:") return;
  function toIndex(url) {
    // Only the site's own relative links: not an address with a scheme, not a fragment alone.
    if (!url || /^([a-z][a-z0-9+.-]*:|\/\/|#|\?)/i.test(url)) return url;
    var cut = url.search(/[?#]/);
    var path = cut < 0 ? url : url.slice(0, cut), rest = cut < 0 ? "" : url.slice(cut);
    if (/(^|\/)\.{0,2}$/.test(path) && path !== "") return path.replace(/\/?$/, "/") + "index.html" + rest;
    return url;
  }
  document.querySelectorAll("a[href]").forEach(function (a) {
    a.setAttribute("href", toIndex(a.getAttribute("href")));
  });
  document.querySelectorAll("form[action]").forEach(function (form) {
    form.setAttribute("action", toIndex(form.getAttribute("action")));
  });
  var main = document.getElementById("main");
  if (!main) return;
  var note = document.createElement("p");
  note.className = "file-note";
  note.textContent = "Opened as a file: pages work, search does not. Run “catalog serve --open” to browse the site served.";
  main.insertBefore(note, main.firstChild);
})();

// A skill's description is cut to three lines on a phone, so that the install command is on the
// first screen; a button under a cut description shows the rest in place.
(function () {
  "use strict";
  var lede = document.querySelector(".skill-head .lede");
  if (!lede) return;
  var button = document.createElement("button");
  button.type = "button";
  button.className = "lede-more";
  button.textContent = "Show the whole description";
  lede.insertAdjacentElement("afterend", button);
  function update() {
    button.hidden = lede.classList.contains("open") || lede.scrollHeight <= lede.clientHeight + 1;
  }
  button.addEventListener("click", function () {
    lede.classList.add("open");
    update();
  });
  update();
  window.addEventListener("resize", update);
})();
