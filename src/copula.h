// Bivariate copula families for test calibration by stochastic simulation
// (Urbano & Nagler, SIGIR 2018, "Stochastic simulation of test collections:
// evaluation scores", section 3: a copula per pair of systems fitted to the
// pseudo-observations; Urbano, Lima & Hanjalic, SIGIR 2019, section 3): what
// the rest of the package includes. The parts:
//   copula_core.h         types, shared numerics, the family record, rotations
//   copula_data.h         a pair's data prepared once, sums over observations
//   copula_fit.h          maximum-likelihood fits of any record
//   copula_elliptical.h   independence, Gaussian, Student t
//   copula_archimedean.h  Clayton, Gumbel, Frank, Joe
//   copula_bb.h           BB1, BB6, BB7, BB8
//   copula_tawn.h         Tawn types 1 and 2
//   copula_families.h     VineCopula's codes -> (record, rotation); the
//                         functions of any copula (density, h, hinv, tau, sim)
//   copula_select.h       preselection and selection by AIC
// What is compiled where: each family's record is defined in a .cpp file of
// its own group (copula_elliptical.cpp, copula_archimedean.cpp,
// copula_frank.cpp, copula_bb16.cpp, copula_bb78.cpp, copula_tawn.cpp), the
// only files that include the family headers, and copula_fit() and
// copula_select() in copula_select.cpp; every other file sees the records
// through their declarations in copula_families.h, so the families' code is
// compiled once, in parallel, and not again in each file that uses copulas.
// Pure C++: no R types.
#ifndef IRTOPICS_COPULA_H
#define IRTOPICS_COPULA_H

#include "copula_select.h"

#endif
