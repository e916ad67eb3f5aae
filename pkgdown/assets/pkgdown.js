/* irtopics site script, written for this site: no external libraries.
 * Builds the in-page table of contents (#toc) from the section headings,
 * adds a copy button to code blocks and a plain search over pkgdown's
 * search.json (substring match on titles, headings, text and code). */
(function () {
  "use strict";
  function ready(fn) {
    if (document.readyState !== "loading") fn();
    else document.addEventListener("DOMContentLoaded", fn);
  }
  function headingId(h) {
    if (h.id) return h.id;
    var p = h.parentElement;
    return p && p.classList.contains("section") && p.id ? p.id : "";
  }
  ready(function () {
    var toc = document.getElementById("toc");
    if (toc) {
      var list = document.createElement("ul");
      list.className = "nav nav-pills flex-column";
      document.querySelectorAll("main h2, main h3").forEach(function (h) {
        var id = headingId(h);
        if (!id) return;
        var li = document.createElement("li");
        var a = document.createElement("a");
        a.className = "nav-link" + (h.tagName === "H3" ? " ms-3" : "");
        a.href = "#" + id;
        a.textContent = h.textContent.trim();
        li.appendChild(a);
        list.appendChild(li);
      });
      if (list.children.length) toc.appendChild(list);
    }
    if (navigator.clipboard) {
      document.querySelectorAll("div.sourceCode").forEach(function (div) {
        var code = div.querySelector("pre");
        if (!code) return;
        var b = document.createElement("button");
        b.type = "button";
        b.className = "btn btn-sm btn-outline-secondary btn-copy-ex";
        b.textContent = "Copy";
        b.setAttribute("aria-label", "Copy to clipboard");
        b.addEventListener("click", function () {
          var text = code.innerText.split("\n").filter(function (l) {
            return !/^#>/.test(l);
          }).join("\n");
          navigator.clipboard.writeText(text).then(function () {
            b.textContent = "Copied";
            setTimeout(function () { b.textContent = "Copy"; }, 1500);
          });
        });
        div.classList.add("hasCopyButton");
        div.insertBefore(b, div.firstChild);
      });
    }
    var input = document.getElementById("search-input");
    if (input && window.fetch) {
      var root = (input.getAttribute("data-search-index") || "search.json").replace(/search\.json$/, "");
      var index = null;
      var box = document.createElement("div");
      box.className = "dropdown-menu dropdown-menu-end";
      box.style.maxHeight = "60vh";
      box.style.overflowY = "auto";
      // anchored at the search box's right edge and no wider than the
      // window, so that it never runs off the page
      box.style.right = "0";
      box.style.left = "auto";
      box.style.width = "min(32rem, calc(100vw - 2rem))";
      box.style.whiteSpace = "normal";
      input.parentNode.style.position = "relative";
      input.parentNode.appendChild(box);
      var load = function () {
        if (index) return Promise.resolve(index);
        return fetch(root + "search.json").then(function (r) { return r.json(); })
          .then(function (d) { index = d; return d; });
      };
      var update = function () {
        var q = input.value.trim().toLowerCase();
        if (q.length < 2) { box.classList.remove("show"); return; }
        load().then(function (entries) {
          var hits = entries.filter(function (e) {
            return [e.title, e.what, e.previous_headings, e.text, e.code].join(" ").toLowerCase().indexOf(q) >= 0;
          }).slice(0, 15);
          box.textContent = "";
          hits.forEach(function (e) {
            var a = document.createElement("a");
            a.className = "dropdown-item";
            a.href = root + String(e.path).replace(/^\//, "") + (e.id ? "#" + e.id : "");
            a.textContent = e.title + (e.what && e.what !== e.title ? " \u203a " + e.what : "");
            box.appendChild(a);
          });
          if (!hits.length) {
            var none = document.createElement("span");
            none.className = "dropdown-item-text text-muted";
            none.textContent = "No match";
            box.appendChild(none);
          }
          box.classList.add("show");
        });
      };
      input.addEventListener("input", update);
      if (input.form) {
        input.form.addEventListener("submit", function (ev) {
          ev.preventDefault();
          var first = box.querySelector("a");
          if (first) window.location.href = first.href;
        });
      }
      document.addEventListener("click", function (ev) {
        if (!box.contains(ev.target) && ev.target !== input) box.classList.remove("show");
      });
    }
  });
})();
