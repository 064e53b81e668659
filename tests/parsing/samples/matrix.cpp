#include <vector>

namespace linalg {

// A dense matrix of doubles.
class Matrix {
 public:
  Matrix(int rows, int cols);
  double at(int r, int c) const { return data_[r * cols_ + c]; }

 private:
  int cols_;
  std::vector<double> data_;
};

template <typename T>
T square(T value) {
  return value * value;
}

}  // namespace linalg

linalg::Matrix::Matrix(int rows, int cols) : cols_(cols), data_(rows * cols) {}
