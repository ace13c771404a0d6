// SPDX-License-Identifier: BSD-3-Clause
// A matrix drawn as a heat map, for the teaching views (the mass matrix M(q), the CFA's
// A = Tᵀ Φ T): one square cell per entry, red for positive and blue for negative values with
// the square root of |value| / max |value| as intensity (so that small couplings stay visible),
// exact zeros white, lines between the blocks of each joint, the coordinates' names along the
// edges when the cells are large enough (else each block's, the joint's, beside it), and the
// entry under the pointer as text (hovered(), valueTextAt()).
#pragma once

#include <Eigen/Core>
#include <QColor>
#include <QStringList>
#include <QWidget>
#include <vector>

namespace kt::render {

class MatrixView : public QWidget {
  Q_OBJECT

 public:
  explicit MatrixView(QWidget* parent = nullptr);

  /// `labels`: one name per row/column ("J12[0]", "J12.fy"); `blockStarts`: the first row of each
  /// block after the first; `name`: the matrix's symbol for the readout ("M", "A").
  void setMatrix(const Eigen::MatrixXd& m, QStringList labels, std::vector<int> blockStarts, QString name);
  /// Colours the cells by a state each instead of their values (the algorithm stepper's
  /// eliminations): `pattern` (the matrix's size) holds an index into `colours` per entry, and
  /// `stateNames` names each state for the readout. Until the next setMatrix.
  void setPattern(Eigen::MatrixXi pattern, std::vector<QColor> colours, QStringList stateNames);
  void clear();
  const Eigen::MatrixXd& matrix() const { return m_; }
  /// Entries that are exactly zero.
  Eigen::Index zeroCount() const;
  /// "M[3, 5] = 1.2345 (J12[0], J14[0])" for the cell at `pos` (widget coordinates), empty outside.
  QString valueTextAt(QPoint pos) const;
  QSize sizeHint() const override { return {360, 360}; }

 signals:
  void hovered(const QString& text);

 protected:
  void paintEvent(QPaintEvent* event) override;
  void mouseMoveEvent(QMouseEvent* event) override;
  void leaveEvent(QEvent* event) override;

 private:
  /// The cells' square: its top-left corner and the size of one cell.
  QRectF grid() const;
  double cell() const;
  /// The cells are large enough for the names along the edges.
  bool labelled() const;
  /// The room left and above the cells for names: the coordinates' (labelled()) or the blocks'.
  double margin() const;

  Eigen::MatrixXd m_;
  Eigen::MatrixXi pattern_;  ///< empty: colours by value
  std::vector<QColor> patternColours_;
  QStringList stateNames_;
  QStringList labels_;
  std::vector<int> blockStarts_;
  QString name_;
  double max_ = 0.0;
  int labelWidth_ = 0;      ///< room for the names on the left and top (0: none drawn)
  QStringList blockNames_;  ///< each block's name: its first label up to '[' or '.' ("J12")
  int blockWidth_ = 0;      ///< room for the blocks' names (0: none)
};

}  // namespace kt::render
