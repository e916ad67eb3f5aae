// Glue between R's measure specification and the registry (measure_table.h):
// the measures requested from R arrive as a list of named fields, one element
// per measure, and are resolved here by name.
#ifndef IRTOPICS_GLUE_MEASURES_H
#define IRTOPICS_GLUE_MEASURES_H

#include <Rcpp.h>

#include <vector>

#include "measures.h"

namespace irtopics_glue {

// `spec`: list(measure = <character: a record's name>, cutoff, param, rel,
// u1, u2, u3, u4), each of one element per measure (measure_fields() in
// R/eval-evaluate.R). Throws irtopics::Error (kind measure) naming the problem:
// a missing field, an unknown name, a parameter the record refuses.
std::vector<irtopics::Measure> measures_from_r(const Rcpp::List& spec);

}  // namespace irtopics_glue

#endif
