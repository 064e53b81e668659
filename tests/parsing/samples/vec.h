#pragma once
#include <string>

namespace geo {

// A one-dimensional vector.
template <typename T>
class Vec {
 public:
  explicit Vec(T x) : x_(x) {}
  T x() const { return x_; }

 private:
  T x_;
};

}  // namespace geo
