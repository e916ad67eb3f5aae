# Plot arguments are never ignored: point labels of the scatter plots,
# `systems` of the prediction plot, and `...` that would swallow typos.

robust_ap <- function() {
  read_scores(system.file("extdata", "score-matrices", "robust2004_ap.csv", package = "irtopics"),
              measure = "AP")
}

# The label layer of a plot: the layer whose data has a `label` column.
label_data <- function(p) {
  for (i in seq_along(p$layers)) {
    d <- ggplot2::layer_data(p, i)
    if ("label" %in% names(d)) return(d[nzchar(d$label), , drop = FALSE])
  }
  NULL
}

test_that("MAP vs GMAP labels all, the top k by MAP, or named systems", {
  rs <- robust_summary(robust_ap())
  tab <- rs$table
  # by default the 5 best of these 110 (all of them would not fit)
  expect_setequal(label_data(ggplot2::autoplot(rs, type = "gmap"))$label,
                  utils::head(tab$system[order(-tab$MAP)], 5))
  expect_null(label_data(ggplot2::autoplot(rs, type = "gmap", label = NULL)))
  top3 <- utils::head(tab$system[order(-tab$MAP)], 3)
  d <- label_data(ggplot2::autoplot(rs, type = "gmap", label = 3))
  expect_setequal(d$label, top3)
  # labels sit at the systems' (MAP, GMAP)
  expect_equal(d$x[order(d$label)], tab$MAP[match(sort(d$label), tab$system)])
  expect_equal(d$y[order(d$label)], tab$GMAP[match(sort(d$label), tab$system)])
  expect_identical(nrow(label_data(ggplot2::autoplot(rs, type = "gmap", label = "all"))), nrow(tab))
  d2 <- label_data(ggplot2::autoplot(rs, type = "gmap", label = tab$system[c(5, 9)]))
  expect_setequal(d2$label, tab$system[c(5, 9)])
  expect_error(ggplot2::autoplot(rs, type = "gmap", label = "nope"), class = "irtopics_error_argument")
  expect_error(ggplot2::autoplot(rs, type = "gmap", label = -1), class = "irtopics_error_argument")
  # arguments of other types are refused, not ignored
  expect_error(ggplot2::autoplot(rs, type = "sorted", label = 3), class = "irtopics_error_argument")
  expect_error(ggplot2::autoplot(rs, type = "sets", topic_set = "all"), class = "irtopics_error_argument")
  expect_error(ggplot2::autoplot(rs, type = "gmap", measure = "GMAP"), class = "irtopics_error_argument")
  # systems restricts the gmap points
  p <- ggplot2::autoplot(rs, type = "gmap", systems = tab$system[1:4])
  expect_identical(nrow(ggplot2::layer_data(p, 1)), 4L)
})

test_that("labels use ggrepel when installed and geom_text otherwise", {
  df <- data.frame(system = c("a", "b", "c"), x = 1:3, y = c(2, 1, 3))
  l1 <- irtopics:::label_layer(df, 2, "system", "y", "x", "y", use_repel = FALSE)
  expect_s3_class(l1$geom, "GeomText")
  expect_setequal(l1$data$.label, c("a", "c"))
  skip_if_not_installed("ggrepel")
  l2 <- irtopics:::label_layer(df, "all", "system", "y", "x", "y")
  expect_s3_class(l2$geom, "GeomTextRepel")
})

test_that("GAWM, HITS and the prediction scatter label their points", {
  ap <- read_scores(system.file("extdata", "score-matrices", "adhoc3.csv", package = "irtopics"),
                    measure = "AP")
  g <- gawm(ap)
  d <- label_data(ggplot2::autoplot(g, label = 2))
  expect_setequal(d$label, utils::head(g$systems$system[order(-g$systems$performance)], 2))
  d <- label_data(ggplot2::autoplot(g, type = "topics", label = "t7"))
  expect_identical(d$label, "t7")
  expect_equal(d$y, g$topics$ease[g$topics$topic == "t7"])
  h <- hits(ap)
  d <- label_data(ggplot2::autoplot(h, type = "topics", label = 4))
  expect_setequal(d$label, utils::head(h$topics$topic[order(-h$topics$authority)], 4))
  pred <- t(apply(ap, 1, function(v) rank(-v, ties.method = "first")))
  pc <- prediction_curves(ap[1:6, ], pred[1:6, ])
  d <- label_data(ggplot2::autoplot(pc, type = "scatter", label = 1))
  expect_identical(d$label, pc$runs$system[which.max(pc$runs$tau)])
})

test_that("autoplot(prediction_curves, systems =) draws those runs' curves", {
  ap <- read_scores(system.file("extdata", "score-matrices", "adhoc3.csv", package = "irtopics"),
                    measure = "AP")
  pred <- t(apply(ap, 1, function(v) rank(-v + seq_along(v) / 100, ties.method = "first")))
  pc <- prediction_curves(ap, pred)
  # 40 runs: the default is the scatter ...
  expect_identical(nrow(ggplot2::layer_data(ggplot2::autoplot(pc))), 40L)
  # ... but naming runs draws their curves (the vignette's Figure 1)
  p <- ggplot2::autoplot(pc, systems = "sys5")
  ld <- ggplot2::layer_data(p)
  cur <- pc$curves[pc$curves$system == "sys5", ]
  expect_identical(nrow(ld), nrow(cur))
  expect_equal(sort(ld$y), sort(cur$MAP))
  # the scatter restricted to named runs
  p2 <- ggplot2::autoplot(pc, type = "scatter", systems = c("sys1", "sys2"))
  expect_equal(sort(ggplot2::layer_data(p2)$x), sort(pc$runs$tau[pc$runs$system %in% c("sys1", "sys2")]))
  expect_error(ggplot2::autoplot(pc, systems = "nope"), class = "irtopics_error_argument")
  expect_error(ggplot2::autoplot(pc, type = "curves", label = 2), class = "irtopics_error_argument")
})

test_that("every autoplot method refuses unknown arguments", {
  ap <- read_scores(system.file("extdata", "score-matrices", "adhoc3.csv", package = "irtopics"),
                    measure = "AP")
  objs <- list(ap, robust_summary(ap), gawm(ap), hits(ap), group_agreement(ap), g_study(ap),
               d_study(g_study(ap), 10))
  for (o in objs) {
    expect_error(ggplot2::autoplot(o, sytems = 1), class = "irtopics_error_argument",
                 info = class(o)[1])
  }
  e <- swap_error_rates(ap, sizes = c(5, 10), trials = 10, seed = 1)
  expect_error(ggplot2::autoplot(e, measure = "MAP"), "Unused argument", class = "irtopics_error_argument")
  expect_error(ggplot2::autoplot(critical_values(e), 1), class = "irtopics_error_argument")
})
