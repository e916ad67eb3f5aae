// Cooperative cancellation, so that an interrupt (Ctrl-C) can stop long C++
// work: the work asks stop_requested() between units (a topic, a chunk of a
// file, a row of system pairs) and throws Cancelled when it says yes. It may
// be called from any thread; the implementation (the glue's InterruptToken)
// decides who polls R. Threaded loops hand the token to the parallel driver
// (parallel.h), which asks it before every item and throws after the join.
//
// Pure C++: no R types.
#ifndef IRTOPICS_CANCEL_H
#define IRTOPICS_CANCEL_H

#include <exception>

namespace irtopics {

class CancelToken {
 public:
  virtual ~CancelToken() = default;
  virtual bool stop_requested() = 0;
};

class Cancelled : public std::exception {
 public:
  const char* what() const noexcept override { return "cancelled"; }
};

// For serial loops: throws Cancelled when a token is given and says stop.
inline void throw_if_cancelled(CancelToken* cancel) {
  if (cancel != nullptr && cancel->stop_requested()) throw Cancelled();
}

}  // namespace irtopics

#endif
