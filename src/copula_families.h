// Copulas: the table of families by VineCopula's codes (the only place the
// codes appear: kCopulaCodes maps each code to a base family record and a
// rotation), and the functions of any copula built once on the records and
// the rotations of copula_core.h: domain check, log density, h-functions
// and inverse, Kendall's tau, simulation by the conditional method. Codes
// follow VineCopula (2.6.1) so that results compare directly with BiCopPDF /
// BiCopHfunc1 / BiCopHfunc2 / BiCopHinv1 / BiCopPar2Tau / BiCopSelect. Pure
// C++.
#ifndef IRTOPICS_COPULA_FAMILIES_H
#define IRTOPICS_COPULA_FAMILIES_H

#include "copula_core.h"
#include "resample.h"

namespace irtopics {

namespace copula_detail {
// The base-family records, each defined once in the .cpp file of its group
// (where its densities and fits are compiled), beside the header that holds
// its functions.
extern const CopulaFamily kIndependence, kGaussian, kStudentT;  // copula_elliptical.cpp
extern const CopulaFamily kClayton, kGumbel, kJoe;               // copula_archimedean.cpp
extern const CopulaFamily kFrank;                                // copula_frank.cpp
extern const CopulaFamily kBB1, kBB6;                            // copula_bb16.cpp
extern const CopulaFamily kBB7, kBB8;                            // copula_bb78.cpp
extern const CopulaFamily kTawn1, kTawn2;                        // copula_tawn.cpp
}  // namespace copula_detail

// One VineCopula code: its base family, its rotation (0, 90, 180, 270:
// the 90 and 270 degree versions have par < 0, and par2 < 0 where the
// record says so) and its name in results.
struct CopulaCode {
  int code;
  const copula_detail::CopulaFamily* family;
  int rotation;
  const char* name;
};

// The code map: one line per base family, its codes by rotation. The order
// is the order in which copula_select() fits the candidates. VineCopula
// builds 124 / 134 from the Tawn type 2 copula and 224 / 234 from type 1
// (BiCopPDF(u1, u2, 124, par, par2) is the type 2 density at (1 - u1, u2)),
// though it names them after the other type.
inline constexpr CopulaCode kCopulaCodes[] = {
    {0, &copula_detail::kIndependence, 0, "independence"},
    {1, &copula_detail::kGaussian, 0, "Gaussian"},
    {2, &copula_detail::kStudentT, 0, "Student t"},
    {3, &copula_detail::kClayton, 0, "Clayton"}, {13, &copula_detail::kClayton, 180, "Clayton 180"}, {23, &copula_detail::kClayton, 90, "Clayton 90"}, {33, &copula_detail::kClayton, 270, "Clayton 270"},
    {4, &copula_detail::kGumbel, 0, "Gumbel"}, {14, &copula_detail::kGumbel, 180, "Gumbel 180"}, {24, &copula_detail::kGumbel, 90, "Gumbel 90"}, {34, &copula_detail::kGumbel, 270, "Gumbel 270"},
    {5, &copula_detail::kFrank, 0, "Frank"},
    {6, &copula_detail::kJoe, 0, "Joe"}, {16, &copula_detail::kJoe, 180, "Joe 180"}, {26, &copula_detail::kJoe, 90, "Joe 90"}, {36, &copula_detail::kJoe, 270, "Joe 270"},
    {7, &copula_detail::kBB1, 0, "BB1"}, {17, &copula_detail::kBB1, 180, "BB1 180"}, {27, &copula_detail::kBB1, 90, "BB1 90"}, {37, &copula_detail::kBB1, 270, "BB1 270"},
    {8, &copula_detail::kBB6, 0, "BB6"}, {18, &copula_detail::kBB6, 180, "BB6 180"}, {28, &copula_detail::kBB6, 90, "BB6 90"}, {38, &copula_detail::kBB6, 270, "BB6 270"},
    {9, &copula_detail::kBB7, 0, "BB7"}, {19, &copula_detail::kBB7, 180, "BB7 180"}, {29, &copula_detail::kBB7, 90, "BB7 90"}, {39, &copula_detail::kBB7, 270, "BB7 270"},
    {10, &copula_detail::kBB8, 0, "BB8"}, {20, &copula_detail::kBB8, 180, "BB8 180"}, {30, &copula_detail::kBB8, 90, "BB8 90"}, {40, &copula_detail::kBB8, 270, "BB8 270"},
    {104, &copula_detail::kTawn1, 0, "Tawn type 1"}, {114, &copula_detail::kTawn1, 180, "Tawn type 1 180"}, {224, &copula_detail::kTawn1, 90, "Tawn type 2 90"}, {234, &copula_detail::kTawn1, 270, "Tawn type 2 270"},
    {204, &copula_detail::kTawn2, 0, "Tawn type 2"}, {214, &copula_detail::kTawn2, 180, "Tawn type 2 180"}, {124, &copula_detail::kTawn2, 90, "Tawn type 1 90"}, {134, &copula_detail::kTawn2, 270, "Tawn type 1 270"},
};

// The entry of a code, or nullptr.
inline const CopulaCode* find_copula_code(int code) {
  for (const CopulaCode& e : kCopulaCodes)
    if (e.code == code) return &e;
  return nullptr;
}

inline const CopulaCode& copula_code(int code) {
  const CopulaCode* e = find_copula_code(code);
  if (!e) throw std::invalid_argument("unknown copula family " + std::to_string(code));
  return *e;
}

namespace copula_detail {

inline bool is_known_family(int code) { return find_copula_code(code) != nullptr; }
inline int rotation_of(int code) {
  const CopulaCode* e = find_copula_code(code);
  return e ? e->rotation : 0;
}
// The code of a code's base family unrotated (124 -> 204).
inline int base_of(int code) {
  const CopulaCode* e = find_copula_code(code);
  if (!e) return -1;
  for (const CopulaCode& b : kCopulaCodes)
    if (b.family == e->family && b.rotation == 0) return b.code;
  return -1;
}
inline bool is_two_par(int code) {
  const CopulaCode* e = find_copula_code(code);
  return e && e->family->npar == 2;
}

// The base arguments and parameters of copula c at (u1, u2).
struct Rotated {
  Arg a, b;
  double th, th2;
};
inline Rotated rotated(const CopulaCode& e, const Copula& c, double u1, double u2) {
  Rotated r;
  rotate_args(e.rotation, make_arg(u1), make_arg(u2), r.a, r.b);
  base_params(*e.family, e.rotation, c.par, c.par2, r.th, r.th2);
  return r;
}

// h1 (second = false) or h2 of a rotated copula from the base h-functions:
//   180: C = u1 + u2 - 1 + C0(1-u1, 1-u2): h1 = 1 - h1_0, h2 = 1 - h2_0
//    90: C = u2 - C0(1-u1, u2):            h1 = h1_0,     h2 = 1 - h2_0
//   270: C = u1 - C0(u1, 1-u2):            h1 = 1 - h1_0, h2 = h2_0
inline double rotated_h(const Copula& c, double u1, double u2, bool second) {
  const CopulaCode& e = copula_code(c.family);
  if (e.family->npar == 0) return second ? u1 : u2;
  const Rotated r = rotated(e, c, u1, u2);
  const double h = second ? e.family->h2(r.th, r.th2, r.a, r.b) : e.family->h1(r.th, r.th2, r.a, r.b);
  const bool complement = e.rotation == 180 || e.rotation == (second ? 90 : 270);
  return std::min(1.0, std::max(0.0, complement ? 1.0 - h : h));  // 1 - h may round past 0
}

// The u2 with h1(u1, u2) = w for the copula of entry e.
inline double hinv1_of(const CopulaCode& e, const Copula& c, double u1, double w) {
  if (e.family->npar == 0) return w;
  const Rotated r = rotated(e, c, u1, u1);
  double v, v1;
  switch (e.rotation) {
    case 180: base_hinv1(*e.family, r.th, r.th2, r.a, 1.0 - w, v, v1); return v1;
    case 90: base_hinv1(*e.family, r.th, r.th2, r.a, w, v, v1); return v;
    case 270: base_hinv1(*e.family, r.th, r.th2, r.a, 1.0 - w, v, v1); return v1;
    default: base_hinv1(*e.family, r.th, r.th2, r.a, w, v, v1); return v;
  }
}

}  // namespace copula_detail

// Throws std::invalid_argument unless c is a known family with parameters
// inside its domain (VineCopula's BiCopCheck, for the 90 and 270 degree
// rotations with negated par and, for BB1-BB8, par2; the BB families' upper
// bounds in BiCopCheck are not enforced, BB6 needs theta >= 1 where
// BiCopCheck accepts theta > 0).
inline void copula_check(const Copula& c) {
  const CopulaCode& e = copula_code(c.family);
  if (e.family->npar == 0) return;
  double th, th2;
  copula_detail::base_params(*e.family, e.rotation, c.par, c.par2, th, th2);
  if (!(std::isfinite(c.par) && std::isfinite(c.par2) && e.family->valid(th, th2)))
    throw std::invalid_argument("parameter out of range for copula family " + std::to_string(c.family));
}

inline double copula_log_pdf(const Copula& c, double u1, double u2) {
  const CopulaCode& e = copula_code(c.family);
  if (e.family->npar == 0) return 0.0;
  const copula_detail::Rotated r = copula_detail::rotated(e, c, u1, u2);
  return e.family->log_pdf(r.th, r.th2, r.a, r.b);
}

inline double copula_pdf(const Copula& c, double u1, double u2) { return std::exp(copula_log_pdf(c, u1, u2)); }

// P(U2 <= u2 | U1 = u1).
inline double copula_h1(const Copula& c, double u1, double u2) { return copula_detail::rotated_h(c, u1, u2, false); }

// P(U1 <= u1 | U2 = u2).
inline double copula_h2(const Copula& c, double u1, double u2) { return copula_detail::rotated_h(c, u1, u2, true); }

// The u2 with copula_h1(c, u1, u2) = w.
inline double copula_hinv1(const Copula& c, double u1, double w) {
  return copula_detail::hinv1_of(copula_code(c.family), c, u1, w);
}

// A uniform on (0, 1), never 0 or 1, from 53 random bits.
inline double stream_uniform(Stream& st) { return (static_cast<double>(st.next64() >> 11) + 0.5) * 0x1p-53; }

// n pairs by the conditional method: u1 uniform, u2 = hinv1(u1, w), w uniform
// (u1 drawn first, then w, from consecutive outputs).
inline void copula_simulate(const Copula& c, Stream& st, std::size_t n, double* u1, double* u2) {
  const CopulaCode& e = copula_code(c.family);
  for (std::size_t i = 0; i < n; ++i) {
    const double a = stream_uniform(st);
    const double w = stream_uniform(st);
    u1[i] = a;
    u2[i] = copula_detail::hinv1_of(e, c, a, w);
  }
}

// Kendall's tau of the copula: the base family's, negated at 90 and 270 degrees.
inline double copula_tau(const Copula& c) {
  const CopulaCode& e = copula_code(c.family);
  double th, th2;
  copula_detail::base_params(*e.family, e.rotation, c.par, c.par2, th, th2);
  const double sign = copula_detail::negates(e.rotation) ? -1.0 : 1.0;
  return sign * e.family->tau(th, th2);
}

}  // namespace irtopics

#endif
