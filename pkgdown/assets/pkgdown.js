/* irtopics site script, written for this site: no external libraries.
 * Builds the in-page table of contents (#toc) from the section headings and
 * adds a copy button to code blocks. */
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
  });
})();
