// SPDX-License-Identifier: BSD-3-Clause
#include "ui/document/edit_commands.hpp"

#include <QCoreApplication>
#include <algorithm>
#include <functional>

#include "ui/document/document.hpp"
#include "ui/document/field_commands.hpp"

namespace kt::ui {
namespace {

QString tr(const char* text) { return QCoreApplication::translate("kt::ui::edit", text); }
QString num(std::size_t n) { return QString::number(n); }
QString q(const std::string& s) { return QString::fromStdString(s); }
std::string s(const QString& q) { return q.toStdString(); }

bool validBody(const Document& doc, int body, QString* error) {
  if (body >= 0 && body < static_cast<int>(doc.model().bodies.size())) return true;
  if (error) *error = tr("no such body");
  return false;
}

// Runs an appending edit on a copy; returns the command holding the new bodies.
QUndoCommand* appendEdit(Document& doc, const std::function<kt::EditError(kt::Model&)>& op, const QString& text,
                         QString* error) {
  kt::Model copy = doc.model();
  const std::size_t before = copy.bodies.size();
  if (const kt::EditError e = op(copy)) {
    if (error) *error = q(*e);
    return nullptr;
  }
  std::vector<kt::BodySpec> added(copy.bodies.begin() + static_cast<long>(before), copy.bodies.end());
  return new AppendBodiesCommand(doc, std::move(added), text);
}

}  // namespace

// ---- commands ----

AppendBodiesCommand::AppendBodiesCommand(Document& doc, std::vector<kt::BodySpec> bodies, const QString& text)
    : QUndoCommand(text), doc_(doc), first_(static_cast<int>(doc.model().bodies.size())), bodies_(std::move(bodies)) {}

void AppendBodiesCommand::redo() {
  std::vector<int> indices;
  for (std::size_t i = 0; i < bodies_.size(); ++i) indices.push_back(first_ + static_cast<int>(i));
  doc_.insertBodies(indices, bodies_);
}

void AppendBodiesCommand::undo() {
  std::vector<int> indices;
  for (std::size_t i = 0; i < bodies_.size(); ++i) indices.push_back(first_ + static_cast<int>(i));
  doc_.removeBodies(indices);
}

RemoveBodiesCommand::RemoveBodiesCommand(Document& doc, std::vector<int> indices, const QString& text)
    : QUndoCommand(text), doc_(doc), indices_(std::move(indices)) {
  std::sort(indices_.begin(), indices_.end());
}

void RemoveBodiesCommand::redo() { removed_ = doc_.removeBodies(indices_); }

void RemoveBodiesCommand::undo() { doc_.insertBodies(indices_, removed_); }

DeleteBodyCommand::DeleteBodyCommand(Document& doc, int body, const kt::Model& after)
    : QUndoCommand(tr("Delete %1").arg(q(doc.model().bodies[body].name))),
      doc_(doc),
      body_(body),
      spec_(doc.model().bodies[body]) {
  children_ = kt::childrenOf(doc.model(), spec_.name);
  for (int c : children_) {
    childBefore_.push_back(doc.model().bodies[c]);
    childAfter_.push_back(after.bodies[c > body ? c - 1 : c]);
  }
}

void DeleteBodyCommand::redo() {
  for (std::size_t i = 0; i < children_.size(); ++i) {
    doc_.setParent(children_[i], childAfter_[i].parent);
    doc_.replaceBody(children_[i], childAfter_[i]);
  }
  doc_.removeBodies({body_});
}

void DeleteBodyCommand::undo() {
  doc_.insertBodies({body_}, {spec_});
  for (std::size_t i = children_.size(); i-- > 0;) {
    doc_.setParent(children_[i], spec_.name);
    doc_.replaceBody(children_[i], childBefore_[i]);
  }
}

ReparentCommand::ReparentCommand(Document& doc, int body, kt::BodySpec after)
    : QUndoCommand(tr("Move %1 to %2").arg(q(after.name), q(after.parent))),
      doc_(doc),
      body_(body),
      before_(doc.model().bodies[body]),
      after_(std::move(after)) {}

void ReparentCommand::redo() {
  doc_.setParent(body_, after_.parent);
  doc_.replaceBody(body_, after_);
}

void ReparentCommand::undo() {
  doc_.setParent(body_, before_.parent);
  doc_.replaceBody(body_, before_);
}

RenameBodyCommand::RenameBodyCommand(Document& doc, int body, std::string name)
    : QUndoCommand(tr("Rename %1 to %2").arg(q(doc.model().bodies[body].name), q(name))),
      doc_(doc),
      body_(body),
      before_(doc.model().bodies[body].name),
      after_(std::move(name)) {}

void RenameBodyCommand::redo() { doc_.renameBody(body_, after_); }
void RenameBodyCommand::undo() { doc_.renameBody(body_, before_); }

ReplaceBodiesCommand::ReplaceBodiesCommand(Document& doc, std::vector<int> bodies, std::vector<kt::BodySpec> after,
                                           const QString& text)
    : QUndoCommand(text), doc_(doc), bodies_(std::move(bodies)), after_(std::move(after)) {
  for (int k : bodies_) before_.push_back(doc.model().bodies[k]);
}

void ReplaceBodiesCommand::redo() {
  for (std::size_t i = 0; i < bodies_.size(); ++i) doc_.replaceBody(bodies_[i], after_[i]);
}

void ReplaceBodiesCommand::undo() {
  for (std::size_t i = bodies_.size(); i-- > 0;) doc_.replaceBody(bodies_[i], before_[i]);
}

// ---- factories ----

namespace edit {

bool apply(Document& doc, QUndoCommand* command) {
  if (!command) return false;
  doc.push(command);
  return true;
}

QUndoCommand* addBody(Document& doc, const QString& parent, kt::JointType type, const QString& name, QString* error) {
  return appendEdit(
      doc, [&](kt::Model& m) { return kt::addBody(m, s(parent), type, s(name)); }, tr("Add body under %1").arg(parent),
      error);
}

QUndoCommand* addBody(Document& doc, const kt::BodySpec& body, QString* error) {
  return appendEdit(
      doc, [&](kt::Model& m) { return kt::addBody(m, body); }, tr("Add %1").arg(q(body.name)), error);
}

QUndoCommand* deleteBody(Document& doc, int body, QString* error) {
  if (!validBody(doc, body, error)) return nullptr;
  kt::Model copy = doc.model();
  if (const kt::EditError e = kt::deleteBody(copy, body)) {
    if (error) *error = q(*e);
    return nullptr;
  }
  return new DeleteBodyCommand(doc, body, copy);
}

QUndoCommand* deleteSubtree(Document& doc, int body, QString* error) {
  if (!validBody(doc, body, error)) return nullptr;
  const std::vector<int> sub = kt::subtreeOf(doc.model(), body);
  return new RemoveBodiesCommand(doc, sub,
                                 tr("Delete %1 (%2 bodies)").arg(q(doc.model().bodies[body].name), num(sub.size())));
}

QUndoCommand* reparent(Document& doc, int body, const QString& newParent, bool keepWorldPose, QString* error) {
  if (!validBody(doc, body, error)) return nullptr;
  kt::Model copy = doc.model();
  if (const kt::EditError e = kt::reparent(copy, body, s(newParent), keepWorldPose)) {
    if (error) *error = q(*e);
    return nullptr;
  }
  return new ReparentCommand(doc, body, copy.bodies[body]);
}

QUndoCommand* duplicateSubtree(Document& doc, int root, const QString& suffix, QString* error) {
  if (!validBody(doc, root, error)) return nullptr;
  return appendEdit(
      doc, [&](kt::Model& m) { return kt::duplicateSubtree(m, root, s(suffix)); },
      tr("Duplicate %1").arg(q(doc.model().bodies[root].name)), error);
}

QUndoCommand* mirrorSubtree(Document& doc, int root, const kt::MirrorOptions& options, QString* error) {
  if (!validBody(doc, root, error)) return nullptr;
  const QString text = tr("Mirror %1").arg(q(doc.model().bodies[root].name));
  if (options.copy)
    return appendEdit(
        doc, [&](kt::Model& m) { return kt::mirrorSubtree(m, root, options); }, text, error);
  kt::Model copy = doc.model();
  if (const kt::EditError e = kt::mirrorSubtree(copy, root, options)) {
    if (error) *error = q(*e);
    return nullptr;
  }
  std::vector<int> bodies = kt::subtreeOf(doc.model(), root);
  std::vector<kt::BodySpec> after;
  for (int k : bodies) after.push_back(copy.bodies[k]);
  return new ReplaceBodiesCommand(doc, std::move(bodies), std::move(after), text);
}

QUndoCommand* renameBody(Document& doc, int body, const QString& name, QString* error) {
  if (!validBody(doc, body, error)) return nullptr;
  if (const kt::EditError e = kt::checkBodyName(doc.model(), body, s(name))) {
    if (error) *error = q(*e);
    return nullptr;
  }
  if (doc.model().bodies[body].name == s(name)) {
    if (error) error->clear();
    return nullptr;
  }
  return new RenameBodyCommand(doc, body, s(name));
}

QUndoCommand* renameJoint(Document& doc, int body, const QString& name, QString* error) {
  if (!validBody(doc, body, error)) return nullptr;
  if (const kt::EditError e = kt::checkJointName(doc.model(), body, s(name))) {
    if (error) *error = q(*e);
    return nullptr;
  }
  kt::BodySpec after = doc.model().bodies[body];
  if (after.joint.name == s(name)) {
    if (error) error->clear();
    return nullptr;
  }
  after.joint.name = s(name);
  return new BodyFieldCommand(doc, body, Field::JointName, -1, std::move(after),
                              tr("Rename joint of %1").arg(q(doc.model().bodies[body].name)));
}

QUndoCommand* insertArm(Document& doc, const QString& parent, const kt::ArmTemplate& t, QString* error) {
  return appendEdit(
      doc, [&](kt::Model& m) { return kt::insertArm(m, s(parent), t); },
      tr("Insert arm of %1").arg(t.links.size() == 1 ? tr("1 link") : tr("%1 links").arg(t.links.size())), error);
}

QUndoCommand* insertChain(Document& doc, const QString& parent, const kt::ChainTemplate& t, QString* error) {
  return appendEdit(
      doc, [&](kt::Model& m) { return kt::insertChain(m, s(parent), t); },
      tr("Insert chain of %1").arg(t.bodies == 1 ? tr("1 body") : tr("%1 bodies").arg(t.bodies)), error);
}

QUndoCommand* insertPrismBase(Document& doc, const QString& parent, const kt::PrismBaseTemplate& t, QString* error) {
  return appendEdit(
      doc, [&](kt::Model& m) { return kt::insertPrismBase(m, s(parent), t); },
      tr("Insert %1-sided prism base").arg(t.sides), error);
}

}  // namespace edit
}  // namespace kt::ui
