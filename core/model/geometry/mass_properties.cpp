// SPDX-License-Identifier: BSD-3-Clause
#include "core/model/geometry/mass_properties.hpp"

#include <cmath>
#include <numbers>
#include <utility>

namespace kt {
namespace {

constexpr double kPi = std::numbers::pi;

// Rigid-body parallel-axis shift: inertia about a point at offset d from the centre of mass.
Mat3 parallelAxis(double m, const Vec3& d) { return m * (d.squaredNorm() * Mat3::Identity() - d * d.transpose()); }

// Mass properties in the shape's own frame (centred, axis along z) for the primitives.
MassProperties primitiveLocal(const Shape& s, double density) {
  MassProperties p;
  const double r = s.radius, L = s.length;
  switch (s.type) {
    case ShapeType::Box: {
      // Solid cuboid with full edges a, b, c: I = m/12 diag(b²+c², a²+c², a²+b²).
      const double a = s.size.x(), b = s.size.y(), c = s.size.z();
      p.mass = density * a * b * c;
      p.inertia.diagonal() << p.mass * (b * b + c * c) / 12.0, p.mass * (a * a + c * c) / 12.0,
          p.mass * (a * a + b * b) / 12.0;
      break;
    }
    case ShapeType::Cylinder: {
      // Solid cylinder along z: Izz = m r²/2, Ixx = Iyy = m (3r² + L²)/12.
      p.mass = density * kPi * r * r * L;
      const double ixx = p.mass * (3.0 * r * r + L * L) / 12.0;
      p.inertia.diagonal() << ixx, ixx, p.mass * r * r / 2.0;
      break;
    }
    case ShapeType::Sphere: {
      p.mass = density * 4.0 / 3.0 * kPi * r * r * r;
      p.inertia.diagonal().setConstant(0.4 * p.mass * r * r);
      break;
    }
    case ShapeType::Capsule: {
      // Cylinder (r, L) plus two hemispheres of mass mh centred on the end faces. A hemisphere's
      // centre of mass is 3r/8 from its flat face; about the sphere centre its inertia is 2/5 mh r²
      // about any diameter. Shifting to the hemisphere's centre of mass and then to the capsule
      // centre (distance L/2 + 3r/8) gives, for both caps together,
      //   Ixx = 2 mh (2/5 r² + L²/4 + 3 L r / 8),  Izz = 4/5 mh r².
      const double mc = density * kPi * r * r * L;
      const double mh = density * 2.0 / 3.0 * kPi * r * r * r;
      p.mass = mc + 2.0 * mh;
      const double ixx = mc * (3.0 * r * r + L * L) / 12.0 + 2.0 * mh * (0.4 * r * r + L * L / 4.0 + 3.0 * L * r / 8.0);
      const double izz = mc * r * r / 2.0 + 0.8 * mh * r * r;
      p.inertia.diagonal() << ixx, ixx, izz;
      break;
    }
    case ShapeType::Prism: {
      // Regular n-gon of circumradius R, central angle α = 2π/n, extruded over L along z.
      // Area A = n/2 R² sin α. Each of the n triangles (centre, Pk, Pk+1) has polar moment
      // A_t (|Pk|² + |Pk+1|² + Pk·Pk+1)/6 = A_t R² (2 + cos α)/6 about the centre, so
      // J = A R² (2 + cos α)/6; a regular polygon's in-plane moments are isotropic (J/2 each).
      //   Izz = m R² (2 + cos α)/6,  Ixx = Iyy = m (R² (2 + cos α)/12 + L²/12).
      const double alpha = 2.0 * kPi / s.sides;
      const double area = 0.5 * s.sides * r * r * std::sin(alpha);
      p.mass = density * area * L;
      const double k = r * r * (2.0 + std::cos(alpha));
      const double ixx = p.mass * (k / 12.0 + L * L / 12.0);
      p.inertia.diagonal() << ixx, ixx, p.mass * k / 6.0;
      break;
    }
    case ShapeType::Mesh: break;
  }
  return p;
}

MassProperties placed(const MassProperties& local, const Placement& origin) {
  const Mat3 R = origin.rotation();
  return {local.mass, origin.xyz + R * local.com, R * local.inertia * R.transpose()};
}

}  // namespace

double shapeVolume(const Shape& s) {
  if (s.type == ShapeType::Mesh) return 0.0;
  return primitiveLocal(s, 1.0).mass;
}

bool meshMassProperties(const TriangleMesh& mesh, double density, MassProperties& out) {
  // Divergence theorem: the solid is the signed sum of tetrahedra (0, a, b, c) over the surface
  // triangles. For one tetrahedron with D = a·(b×c): volume D/6, first moment (a+b+c) D/24,
  // second moment ∫ x xᵀ dV = D/120 (a aᵀ + b bᵀ + c cᵀ + s sᵀ), s = a+b+c
  // (Eberly, "Polyhedral Mass Properties"; Tonon 2004, J. Math. Stat. 1(1)).
  double V = 0.0;
  Vec3 first = Vec3::Zero();
  Mat3 C = Mat3::Zero();
  for (const auto& t : mesh.triangles) {
    const Vec3 &a = mesh.vertices[t[0]], &b = mesh.vertices[t[1]], &c = mesh.vertices[t[2]];
    const double D = a.dot(b.cross(c));
    const Vec3 s = a + b + c;
    V += D / 6.0;
    first += s * (D / 24.0);
    C += (D / 120.0) * (a * a.transpose() + b * b.transpose() + c * c.transpose() + s * s.transpose());
  }
  if (V < 0.0) {  // inward-facing triangles: the same solid with the opposite sign
    V = -V;
    first = -first;
    C = -C;
  }
  if (!(V > 0.0) || !std::isfinite(V)) return false;
  out.mass = density * V;
  out.com = first / V;
  const Mat3 Io = density * (C.trace() * Mat3::Identity() - C);  // about the mesh origin
  out.inertia = Io - parallelAxis(out.mass, out.com);
  out.inertia = 0.5 * (out.inertia + out.inertia.transpose()).eval();
  return true;
}

MassProperties combineMassProperties(const MassProperties& a, const MassProperties& b) {
  MassProperties r;
  r.mass = a.mass + b.mass;
  if (!(r.mass > 0.0)) return r;
  r.com = (a.mass * a.com + b.mass * b.com) / r.mass;
  r.inertia = a.inertia + parallelAxis(a.mass, a.com - r.com) + b.inertia + parallelAxis(b.mass, b.com - r.com);
  return r;
}

MassProperties primitiveMassProperties(const Shape& shape, double density) {
  return placed(primitiveLocal(shape, density), shape.origin);
}

bool shapeMassProperties(const Shape& shape, double density, const std::string& modelDirectory,
                         const MeshSource& meshes, MassProperties& out, std::string& error) {
  if (shape.type != ShapeType::Mesh) {
    out = primitiveMassProperties(shape, density);
    return true;
  }
  TriangleMesh mesh;
  const std::string path = resolveMeshPath(shape.mesh, modelDirectory);
  if (!meshes.read(path, mesh, error)) return false;
  // A mirroring scale (an odd number of negative factors) turns the surface inside out.
  const bool mirrored = shape.meshScale.x() * shape.meshScale.y() * shape.meshScale.z() < 0.0;
  for (Vec3& v : mesh.vertices) v = v.cwiseProduct(shape.meshScale);
  if (mirrored)
    for (auto& t : mesh.triangles) std::swap(t[1], t[2]);
  std::string why;
  if (!checkClosedSurface(mesh, why)) {
    error = "mesh file '" + path + "': " + why + "; mass properties need a closed surface facing outward";
    return false;
  }
  MassProperties local;
  if (!meshMassProperties(mesh, density, local)) {
    error = "mesh file '" + path + "' encloses no volume (it must be a closed surface)";
    return false;
  }
  out = placed(local, shape.origin);
  return true;
}

bool bodyMassProperties(const BodySpec& body, const std::string& modelDirectory, const MeshSource& meshes,
                        MassProperties& out, std::string& error) {
  const Inertial& in = body.inertial;
  if (!in.fromShapes) {
    out = {in.mass, in.com, in.inertia};
    return true;
  }
  out = {};
  bool ok = true;
  for (const Shape& s : body.shapes) {
    MassProperties p;
    std::string why;
    if (!shapeMassProperties(s, in.density, modelDirectory, meshes, p, why)) {
      if (ok) error = why;
      ok = false;
      continue;
    }
    out = combineMassProperties(out, p);
  }
  return ok;
}

MassProperties bodyMassProperties(const BodySpec& body, const std::string& modelDirectory, const MeshSource& meshes) {
  MassProperties out;
  std::string error;
  bodyMassProperties(body, modelDirectory, meshes, out, error);
  return out;
}

}  // namespace kt
