// SPDX-License-Identifier: BSD-3-Clause
#include "core/model/geometry/mount_faces.hpp"

#include <cmath>
#include <cstdio>
#include <numbers>

#include "core/model/editing/round_values.hpp"

namespace kt {
namespace {

// "+y", "−x", or "(0.866, 0.5, 0)" for a normal off the axes.
std::string directionText(const Vec3& n) {
  for (int k = 0; k < 3; ++k) {
    if (std::abs(std::abs(n[k]) - 1.0) < 1e-12) return std::string(n[k] > 0 ? "+" : "-") + "xyz"[k];
  }
  char buf[96];
  std::snprintf(buf, sizeof buf, "(%.3g, %.3g, %.3g)", std::abs(n.x()) < 1e-12 ? 0.0 : n.x(),
                std::abs(n.y()) < 1e-12 ? 0.0 : n.y(), std::abs(n.z()) < 1e-12 ? 0.0 : n.z());
  return buf;
}

}  // namespace

std::vector<MountFace> mountFaces(const BodySpec& body) {
  std::vector<MountFace> faces;
  for (int s = 0; s < static_cast<int>(body.shapes.size()); ++s) {
    const Shape& shape = body.shapes[static_cast<std::size_t>(s)];
    // faces in the shape frame, carried into the body frame by the shape's origin
    std::vector<std::pair<std::string, std::pair<Vec3, Vec3>>> local;  // name, (centre, normal)
    const auto add = [&](std::string name, const Vec3& centre, const Vec3& normal) {
      local.emplace_back(std::move(name), std::make_pair(centre, normal));
    };
    const double h = 0.5 * shape.length;
    switch (shape.type) {
      case ShapeType::Box:
        for (int k = 0; k < 3; ++k) {
          for (int sign : {1, -1}) {
            const Vec3 n = sign * Vec3::Unit(k);
            add("face", 0.5 * shape.size[k] * n, n);
          }
        }
        break;
      case ShapeType::Prism: {
        // first vertex on +x (docs/model-format.md): side k lies between vertices k and k + 1.
        // In long double and rounded once: the centre on the hexagon's +y side is 0.8 cos 30° =
        // 0.6928203230275509 as a user writes it, not the 0.692820323027551 of double steps.
        const long double pi = 3.141592653589793238462643383279502884L;
        const long double apothem = static_cast<long double>(shape.radius) * std::cos(pi / shape.sides);
        for (int k = 0; k < shape.sides; ++k) {
          const long double phi = pi * (2.0L * k + 1.0L) / shape.sides;
          const Vec3 n(static_cast<double>(std::cos(phi)), static_cast<double>(std::sin(phi)), 0.0);
          const Vec3 centre(static_cast<double>(apothem * std::cos(phi)), static_cast<double>(apothem * std::sin(phi)),
                            0.0);
          add("side " + std::to_string(k + 1), centre, n);
        }
        add("end", Vec3(0, 0, h), Vec3::UnitZ());
        add("end", Vec3(0, 0, -h), -Vec3::UnitZ());
        break;
      }
      case ShapeType::Cylinder:
        add("cap", Vec3(0, 0, h), Vec3::UnitZ());
        add("cap", Vec3(0, 0, -h), -Vec3::UnitZ());
        for (int k = 0; k < 2; ++k) {
          for (int sign : {1, -1}) {
            const Vec3 n = sign * Vec3::Unit(k);
            add("side", shape.radius * n, n);
          }
        }
        break;
      case ShapeType::Capsule:
        add("end", Vec3(0, 0, h + shape.radius), Vec3::UnitZ());
        add("end", Vec3(0, 0, -h - shape.radius), -Vec3::UnitZ());
        break;
      case ShapeType::Sphere:
        for (int k = 0; k < 3; ++k) {
          for (int sign : {1, -1}) {
            const Vec3 n = sign * Vec3::Unit(k);
            add("pole", shape.radius * n, n);
          }
        }
        break;
      case ShapeType::Mesh: break;
    }
    const Mat3 R = shape.origin.rotation();
    for (const auto& [name, cn] : local) {
      MountFace f;
      f.shape = s;
      f.centre = shape.origin.xyz + R * cn.first;
      f.normal = (R * cn.second).normalized();
      f.label = "shape " + std::to_string(s + 1) + " (" + std::string(shapeTypeName(shape.type)) + "): " + name +
                ", normal " + directionText(f.normal);
      faces.push_back(std::move(f));
    }
  }
  return faces;
}

Placement facePlacement(const MountFace& face) {
  Placement p;
  p.xyz = face.centre;
  const Vec3 z = Vec3::UnitZ();
  const Vec3 n = face.normal.normalized();
  Mat3 R;
  if (n.z() < -1.0 + 1e-15) {
    R = Eigen::AngleAxisd(std::numbers::pi, Vec3::UnitX()).toRotationMatrix();  // a roll of 180°
  } else {
    R = Eigen::Quaterniond::FromTwoVectors(z, n).toRotationMatrix();  // the shortest turn
  }
  p.rpy = rpyFromRotation(R);
  roundComputed(p);
  return p;
}

}  // namespace kt
