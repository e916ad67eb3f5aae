# Checks the built pkgdown site in headless Chromium: every HTML page loads
# without console errors (console.error, uncaught exceptions, failed resource
# loads), no internal link (page, file or #anchor) is broken and every image
# loads. The site is served by httpuv on 127.0.0.1 only; Chromium is driven
# with chromote. Prints one line per problem and a summary; exits 1 on any.
#   Rscript tools/check-site.R [site-dir]        (default: docs)
# CHROMOTE_CHROME selects the browser (default: Debian's /usr/bin/chromium).
options(warn = 1)
`%||%` <- function(a, b) if (is.null(a)) b else a
args <- commandArgs(trailingOnly = TRUE)
site <- normalizePath(if (length(args)) args[1] else "docs", mustWork = TRUE)
for (p in c("chromote", "httpuv")) {
  if (!requireNamespace(p, quietly = TRUE)) stop(p, " is missing: run bash tools/setup.sh --site")
}
chrome <- Sys.getenv("CHROMOTE_CHROME", unset = Sys.which("chromium"))
if (!nzchar(chrome) || !file.exists(chrome)) {
  stop("Chromium not found: apt-get install chromium (or set CHROMOTE_CHROME)")
}

# -- serve the site on 127.0.0.1 ------------------------------------------
port <- httpuv::randomPort(host = "127.0.0.1")
server <- httpuv::startServer("127.0.0.1", port, list(
  staticPaths = list("/" = httpuv::staticPath(site, indexhtml = TRUE, fallthrough = FALSE))))
on.exit(httpuv::stopServer(server), add = TRUE)
base <- sprintf("http://127.0.0.1:%d", port)

# -- the browser ------------------------------------------------------------
profile <- tempfile("chromium-profile-")
dir.create(profile)
browser <- chromote::Chrome$new(path = chrome, args = c(
  "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
  "--disable-background-networking", "--disable-component-update", "--disable-sync",
  paste0("--user-data-dir=", profile)))
cm <- chromote::Chromote$new(browser = browser)
on.exit({ try(cm$close(), silent = TRUE); unlink(profile, recursive = TRUE) }, add = TRUE)
s <- cm$new_session(width = 1280, height = 900)
invisible(s$Runtime$enable())
invisible(s$Log$enable())

errors <- character()   # console errors of the page being loaded
s$Runtime$consoleAPICalled(callback_ = function(m) {
  if (m$type %in% c("error", "assert")) {
    txt <- vapply(m$args, function(a) as.character(a$value %||% a$description %||% ""), "")
    errors <<- c(errors, paste("console.error:", paste(txt, collapse = " ")))
  }
})
s$Runtime$exceptionThrown(callback_ = function(m) {
  d <- m$exceptionDetails
  errors <<- c(errors, paste("exception:", d$exception$description %||% d$text))
})
s$Log$entryAdded(callback_ = function(m) {
  e <- m$entry
  # the browser's own request for /favicon.ico is not the page's
  if (identical(e$level, "error") && !grepl("/favicon\\.ico$", e$url %||% ""))
    errors <<- c(errors, paste0(e$text, if (!is.null(e$url)) paste0(" (", e$url, ")")))
})
# What each page holds, read in the page after it loaded.
inspect_js <- "({
  links: Array.from(document.querySelectorAll('a[href]')).map(a => a.href),
  images: Array.from(document.images).map(i => ({src: i.currentSrc || i.src,
                                                   ok: i.complete && i.naturalWidth > 0})),
  ids: Array.from(document.querySelectorAll('[id], a[name]')).map(e => e.id || e.getAttribute('name')),
  title: document.title})"

visit <- function(path) {
  errors <<- character()
  loaded <- s$Page$loadEventFired(wait_ = FALSE, timeout_ = 30)
  s$Page$navigate(paste0(base, path), wait_ = FALSE)
  ok <- tryCatch({ s$wait_for(loaded); TRUE }, error = function(e) FALSE)
  # wait 300 ms in the page (chromote handles late console events meanwhile)
  s$Runtime$evaluate("new Promise(r => setTimeout(r, 300))", awaitPromise = TRUE)
  info <- s$Runtime$evaluate(inspect_js, returnByValue = TRUE)$result$value
  list(loaded = ok, errors = unique(errors), info = info)
}

# URL path -> file in the site (a directory means its index.html).
url_file <- function(p) {
  f <- file.path(site, utils::URLdecode(sub("^/", "", p)))
  if (dir.exists(f)) f <- file.path(f, "index.html")
  f
}

pages <- sub(paste0("^", site), "", list.files(site, "\\.html$", recursive = TRUE, full.names = TRUE))
pages <- pages[!grepl("^/(deps|reference/libs|articles/.*_files)/", pages)]   # bundled libraries, not pages
problems <- character()
ids <- list()
links <- list()
n_img <- 0L
for (pg in pages) {
  r <- visit(pg)
  if (!r$loaded) problems <- c(problems, sprintf("%s: did not finish loading", pg))
  if (length(r$errors)) problems <- c(problems, sprintf("%s: %s", pg, r$errors))
  ids[[pg]] <- unlist(r$info$ids)
  for (im in r$info$images) {
    n_img <- n_img + 1L
    if (!isTRUE(im$ok)) problems <- c(problems, sprintf("%s: image does not load: %s", pg, im$src))
  }
  links[[pg]] <- unlist(r$info$links)
}

# Internal links: the target file exists, and an #anchor exists in its page.
n_int <- 0L; n_ext <- 0L
for (pg in names(links)) {
  for (u in unique(links[[pg]])) {
    if (!startsWith(u, base)) { n_ext <- n_ext + 1L; next }
    n_int <- n_int + 1L
    path <- sub("#.*$", "", sub("\\?.*$", "", substring(u, nchar(base) + 1)))
    frag <- if (grepl("#", u)) sub("^[^#]*#", "", u) else ""
    f <- url_file(path)
    if (!file.exists(f)) {
      problems <- c(problems, sprintf("%s: broken link %s", pg, u)); next
    }
    if (nzchar(frag) && grepl("\\.html$", f)) {
      target <- sub(paste0("^", site), "", f)
      have <- ids[[target]]
      if (!is.null(have) && !utils::URLdecode(frag) %in% have) {
        problems <- c(problems, sprintf("%s: broken anchor %s", pg, u))
      }
    }
  }
}

# Layout: the content column is wide on a wide window, and the search
# results stay inside the window (wide and narrow windows).
layout_js <- "new Promise(r => {
  const input = document.getElementById('search-input');
  const main = document.querySelector('main');
  const out = {main: main ? main.getBoundingClientRect().width : 0, box: null, inner: window.innerWidth};
  if (!input) { r(out); return; }
  input.value = 'precision';
  input.dispatchEvent(new Event('input', {bubbles: true}));
  input.dispatchEvent(new Event('keyup', {bubbles: true}));
  setTimeout(() => {
    const box = input.parentNode.querySelector('.dropdown-menu');
    if (box) { const b = box.getBoundingClientRect(); out.box = {left: b.left, right: b.right, shown: box.classList.contains('show')}; }
    r(out);
  }, 1500);
})"
for (w in c(1600, 420)) {
  s$Emulation$setDeviceMetricsOverride(width = w, height = 900, deviceScaleFactor = 1, mobile = w < 600)
  visit("/index.html")
  lay <- s$Runtime$evaluate(layout_js, awaitPromise = TRUE, returnByValue = TRUE)$result$value
  if (w >= 1200 && lay$main < 900) {
    problems <- c(problems, sprintf("layout: the content column is %.0f px wide in a %d px window", lay$main, w))
  }
  if (!is.null(lay$box) && isTRUE(lay$box$shown) && (lay$box$left < 0 || lay$box$right > lay$inner + 1)) {
    problems <- c(problems, sprintf("layout: the search results run off a %d px window (%.0f to %.0f px)",
                                    w, lay$box$left, lay$box$right))
  }
  if (w >= 1200 && (is.null(lay$box) || !isTRUE(lay$box$shown))) {
    problems <- c(problems, "layout: typing in the search box shows no results")
  }
}

cat(sprintf("check-site: %d pages loaded in %s, %d images, %d internal links (%d external links not followed)\n",
            length(pages), basename(chrome), n_img, n_int, n_ext))
if (length(problems)) {
  cat(sprintf("  %s\n", problems), sep = "")
  cat(sprintf("check-site: %d problem(s)\n", length(problems)))
  quit(status = 1)
}
cat("check-site: no console errors, broken internal links or images that fail to load\n")
