# Lists the S3 methods registered in NAMESPACE that have no help entry
# (no \alias{generic.class} in man/*.Rd). Usage, from the package root:
#   Rscript tools/check-method-docs.R
# Prints "N of M S3 methods documented" and the undocumented ones; exits
# with status 1 when any is missing.
ns <- readLines("NAMESPACE")
s3 <- regmatches(ns, regexec("^S3method\\(([^,]+),([^,)]+)", ns))
s3 <- do.call(rbind, lapply(s3[lengths(s3) == 3L], function(m) m[2:3]))
generic <- gsub('^"|"$', "", sub("^.*::", "", s3[, 1]))
methods <- paste0(generic, ".", s3[, 2])
aliases <- unlist(lapply(list.files("man", "\\.Rd$", full.names = TRUE), function(f) {
  rd <- tools::parse_Rd(f)
  vapply(rd[vapply(rd, attr, "", "Rd_tag") == "\\alias"], function(a) paste(unlist(a), collapse = ""), "")
}))
aliases <- gsub("\\\\", "", aliases)
missing <- methods[!methods %in% aliases]
cat(sprintf("%d of %d S3 methods documented\n", length(methods) - length(missing), length(methods)))
if (length(missing)) cat(paste0("  ", sort(missing)), sep = "\n")
quit(status = if (length(missing)) 1 else 0)
