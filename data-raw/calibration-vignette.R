# The simulations behind vignette("calibration") ("Which test for my
# collection?"): about 1.2 million trials, several minutes on 2 cores, too
# long to rerun at every build of the vignette (R CMD build, R CMD check and
# the site each run it). This script runs them with the package's own code
# and stores the results in vignettes/calibration-results.rds, which the
# vignette reads; the vignette shows the same calls. Rerun after any change to
# the simulation (margins, copulas, trial loop):
#   R CMD INSTALL . && Rscript data-raw/calibration-vignette.R
# The test "the 2019 study's AP Type I table and power at 50 topics are
# reproduced" (tests/testthat/test-calibration-run.R) checks the AP numbers
# live.
library(irtopics)
options(irtopics.progress = FALSE)
dir <- system.file("extdata", "score-matrices", package = "irtopics")
read <- function(measure, suffix) {
  files <- file.path(dir, sprintf("adhoc%d_%s.csv", 5:8, suffix))
  stats::setNames(lapply(files, read_scores, measure = measure), paste0("TREC-", 5:8))
}
# An ir_calibration without the fitted model's margins and copulas (its
# print and plots need only the settings, the table and the system names).
light <- function(cal) {
  for (k in names(cal$model$collections)) {
    cal$model$collections[[k]][c("margins", "copulas", "pobs", "scores")] <- NULL
  }
  cal
}
timed <- function(expr) {
  t <- system.time(value <- force(expr))[["elapsed"]]
  list(value = value, seconds = t)
}
ap <- read("AP", "ap")
p10 <- read("P@10", "p10")
model_ap <- timed(simulation_model(ap, seed = 2019))
cal_ap <- timed(test_calibration(model_ap$value, n_topics = c(25, 50, 100), delta = c(0.01, 0.03, 0.05),
                                 trials = 20000, B = 1000, seed = 2019))
model_p10 <- timed(simulation_model(p10, seed = 2019))
cal_p10 <- timed(test_calibration(model_p10$value, n_topics = c(25, 50, 100), delta = NULL,
                                  trials = 20000, B = 1000, seed = 2019))
model_basic <- timed(simulation_model(ap, copulas = "basic", seed = 2019))
cal_basic <- timed(test_calibration(model_basic$value, n_topics = c(25, 50, 100), delta = NULL,
                                    trials = 20000, B = 1000, seed = 2019))
robust <- read_scores(file.path(dir, "robust2004_ap.csv"), measure = "AP")
model_robust <- timed(simulation_model(robust, seed = 2004))
cal_robust <- timed(test_calibration(model_robust$value, n_topics = c(25, 50, 100, 200),
                                     delta = c(0.01, 0.02, 0.03), trials = 20000, B = 1000, seed = 2004))
# Intervals with the model's uncertainty (test_calibration(refits =)): TREC-8
# alone, 10 refits on half of its topics, 1,000 trials under each.
trec8 <- ap[["TREC-8"]]
model8 <- timed(simulation_model(trec8, seed = 8))
cal_refits <- timed(test_calibration(model8$value, n_topics = c(25, 50, 100), delta = NULL, trials = 5000,
                                     B = 1000, seed = 8, refits = 10, refit_trials = 1000))
families <- function(model) {
  list(margins = table(as.data.frame(model, what = "margins")$family),
       copulas = table(as.data.frame(model, what = "copulas")$copula))
}
results <- list(
  version = as.character(utils::packageVersion("irtopics")), date = format(Sys.Date()),
  machine = sprintf("%s, %d cores", R.version$platform, parallel::detectCores()),
  ap = light(cal_ap$value), p10 = light(cal_p10$value), basic = light(cal_basic$value),
  robust = light(cal_robust$value), refits = light(cal_refits$value),
  families = list(ap = families(model_ap$value), p10 = families(model_p10$value),
                  basic = families(model_basic$value), robust = families(model_robust$value)),
  seconds = c(model_ap = model_ap$seconds, trials_ap = cal_ap$seconds, model_p10 = model_p10$seconds,
              trials_p10 = cal_p10$seconds, model_basic = model_basic$seconds, trials_basic = cal_basic$seconds,
              model_robust = model_robust$seconds, trials_robust = cal_robust$seconds,
              model_trec8 = model8$seconds, refits_trec8 = cal_refits$seconds))
saveRDS(results, file.path("vignettes", "calibration-results.rds"), version = 2)
print(results$seconds)
