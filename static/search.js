// Search over the static index in search/ (see src/render/search.rs for its layout).
// Fetches only the term shards a query needs and the document shards of the results shown.
(function () {
  "use strict";
  var box = document.getElementById("search");
  if (!box || !window.fetch) return;
  var root = box.getAttribute("data-root") || "";
  var input = document.getElementById("q");
  var status = document.getElementById("search-status");
  var list = document.getElementById("search-results");
  var filters = box.querySelector(".filters");
  var selects = filters.querySelectorAll("select");
  // Results are shown 50 at a time; "Show more" adds the next 50.
  var PAGE = 50;
  var shown = PAGE;
  var cache = {};
  var meta = null;
  var generation = 0;
  filters.hidden = false;

  function load(path) {
    if (!cache[path]) {
      cache[path] = fetch(root + path).then(function (r) {
        if (r.status === 404) return null;
        if (!r.ok) throw new Error(r.status + " " + path);
        return r.json();
      });
    }
    return cache[path];
  }

  // Mirrors shard_key and terms in src/render/search.rs.
  function shardKey(term) {
    return Array.from(term).slice(0, 2).map(function (c) {
      return /[a-z0-9]/.test(c) ? c : "_" + c.codePointAt(0).toString(16);
    }).join("");
  }
  function terms(text) {
    return text.toLowerCase().split(/[^\p{L}\p{N}.+#_]+/u)
      .map(function (w) { return w.replace(/^\.+|\.+$/g, ""); })
      .filter(function (w) { return Array.from(w).length >= 2; });
  }

  // Whether a and b differ by at most one letter added, dropped, changed or two swapped.
  function oneEditApart(a, b) {
    if (Math.abs(a.length - b.length) > 1) return false;
    var i = 0;
    while (i < a.length && i < b.length && a[i] === b[i]) i++;
    if (i === a.length && i === b.length) return true;
    var tail = function (x, y) { return a.slice(x) === b.slice(y); };
    if (a.length === b.length) {
      return tail(i + 1, i + 1) || (a[i] === b[i + 1] && a[i + 1] === b[i] && tail(i + 2, i + 2));
    }
    return a.length > b.length ? tail(i + 1, i) : tail(i, i + 1);
  }

  // Docs matching one query word: its exact term, or any term it starts (as you type); a word
  // of four letters or more that starts none matches the terms one typing slip away.
  function matchTerm(word) {
    var key = shardKey(word);
    return load("search/meta.json").then(function (m) {
      // Only shards the index holds: a word without one matches nothing, with no request.
      return m.shards.indexOf(key) < 0 ? null : load("search/terms/" + key + ".json");
    }).then(function (shard) {
      var scores = new Map();
      if (!shard) return scores;
      var add = function (term, bonus) {
        var p = shard[term];
        for (var i = 0; i < p.length; i += 2) {
          var s = p[i + 1] + bonus;
          if ((scores.get(p[i]) || 0) < s) scores.set(p[i], s);
        }
      };
      var terms = Object.keys(shard);
      terms.forEach(function (term) {
        if (term.lastIndexOf(word, 0) === 0) add(term, term === word ? 1 : 0);
      });
      if (!scores.size && Array.from(word).length >= 4) {
        terms.forEach(function (term) { if (oneEditApart(term, word)) add(term, 0); });
      }
      return scores;
    });
  }

  function activeFilters() {
    return Array.prototype.filter.call(selects, function (s) { return s.value; })
      .map(function (s) { return "search/facets/" + s.name + "/" + s.value + ".json"; });
  }

  function run() {
    var mine = ++generation;
    shown = PAGE;
    var words = terms(input.value);
    var facetFiles = activeFilters();
    syncUrl();
    if (!words.length && !facetFiles.length) {
      status.textContent = "";
      list.innerHTML = "";
      return;
    }
    var textPart = Promise.all(words.map(matchTerm)).then(function (maps) {
      if (!maps.length) return null;
      var result = maps[0];
      maps.slice(1).forEach(function (m) {
        var next = new Map();
        result.forEach(function (s, doc) { if (m.has(doc)) next.set(doc, s + m.get(doc)); });
        result = next;
      });
      return result;
    });
    var facetPart = Promise.all(facetFiles.map(load));
    Promise.all([textPart, facetPart, load("search/meta.json")]).then(function (parts) {
      if (mine !== generation) return;
      var scores = parts[0];
      meta = parts[2];
      var docs;
      if (scores) {
        docs = Array.from(scores.keys());
      } else {
        docs = (parts[1][0] || []).slice();
      }
      parts[1].forEach(function (ids) {
        var set = new Set(ids || []);
        docs = docs.filter(function (d) { return set.has(d); });
      });
      docs.sort(function (a, b) {
        return scores ? (scores.get(b) - scores.get(a)) || (a - b) : a - b;
      });
      show(docs, mine);
    }).catch(function (err) {
      status.textContent = "Search failed to load: " + err.message;
    });
  }

  var more = document.createElement("button");
  more.type = "button";
  more.className = "button";
  more.hidden = true;
  more.textContent = "Show more";
  list.after(more);
  var lastDocs = [];
  more.addEventListener("click", function () {
    shown += PAGE;
    show(lastDocs, generation);
  });

  function show(docs, mine) {
    lastDocs = docs;
    var top = docs.slice(0, shown);
    var shards = Array.from(new Set(top.map(function (d) { return Math.floor(d / meta.doc_shard); })));
    Promise.all(shards.map(function (n) { return load("search/docs/" + n + ".json"); })).then(function (loaded) {
      if (mine !== generation) return;
      var byShard = {};
      shards.forEach(function (n, i) { byShard[n] = loaded[i]; });
      list.innerHTML = "";
      top.forEach(function (d) {
        var doc = byShard[Math.floor(d / meta.doc_shard)][d % meta.doc_shard];
        var li = document.createElement("li");
        li.className = "card";
        var a = document.createElement("a");
        a.className = "card-title";
        a.href = root + doc.u;
        a.textContent = doc.t;
        var repo = document.createElement("span");
        repo.className = "card-repo";
        repo.textContent = doc.r;
        var p = document.createElement("p");
        p.textContent = doc.d;
        var m = document.createElement("span");
        m.className = "card-meta";
        m.textContent = [doc.c.join(", "), doc.l, doc.v].filter(Boolean).join(" · ");
        li.append(a, repo, p, m);
        list.appendChild(li);
      });
      var n = docs.length;
      status.textContent = n === 0 ? "No skills match." :
        n + (n === 1 ? " skill matches" : " skills match") + (n > top.length ? "; the first " + top.length + " are shown." : ".");
      more.hidden = n <= top.length;
      more.textContent = "Show " + Math.min(PAGE, n - top.length) + " more";
    });
  }

  function syncUrl() {
    var params = new URLSearchParams();
    if (input.value.trim()) params.set("q", input.value.trim());
    selects.forEach(function (s) { if (s.value) params.set(s.name, s.value); });
    var query = params.toString();
    history.replaceState(null, "", query ? "?" + query : location.pathname);
  }

  var timer = null;
  input.addEventListener("input", function () {
    clearTimeout(timer);
    timer = setTimeout(run, 120);
  });
  selects.forEach(function (s) { s.addEventListener("change", run); });
  box.querySelector("form").addEventListener("submit", function (e) {
    e.preventDefault();
    run();
  });

  var start = new URLSearchParams(location.search);
  input.value = start.get("q") || "";
  selects.forEach(function (s) { s.value = start.get(s.name) || ""; });
  run();
})();
