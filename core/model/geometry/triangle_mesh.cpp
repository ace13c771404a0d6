// SPDX-License-Identifier: BSD-3-Clause
#include "core/model/geometry/triangle_mesh.hpp"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <unordered_map>

#include "core/model/text_util.hpp"

namespace kt {

namespace {

std::string point(const Vec3& p) {
  return "(" + formatSignificant(p.x(), 6) + ", " + formatSignificant(p.y(), 6) + ", " + formatSignificant(p.z(), 6) +
         ")";
}

struct PositionHash {
  std::size_t operator()(const Vec3& p) const {
    std::size_t h = 0;
    for (int k = 0; k < 3; ++k) {
      std::uint64_t bits = 0;
      const double x = p[k] + 0.0;  // −0 and +0 are the same position
      std::memcpy(&bits, &x, sizeof bits);
      h = (h ^ bits) * 0x100000001b3ull + (h >> 29);
    }
    return h;
  }
};

struct PositionEqual {
  bool operator()(const Vec3& a, const Vec3& b) const { return a.x() == b.x() && a.y() == b.y() && a.z() == b.z(); }
};

int findRoot(std::vector<int>& up, int v) {
  while (up[v] != v) {
    up[v] = up[up[v]];
    v = up[v];
  }
  return v;
}

}  // namespace

bool checkClosedSurface(const TriangleMesh& mesh, std::string& error) {
  // Weld vertices at equal positions (STL repeats every corner in each triangle).
  std::unordered_map<Vec3, int, PositionHash, PositionEqual> index;
  index.reserve(mesh.vertices.size());
  std::vector<int> welded(mesh.vertices.size());
  std::vector<Vec3> where;
  for (std::size_t v = 0; v < mesh.vertices.size(); ++v) {
    const auto [it, inserted] = index.emplace(mesh.vertices[v], static_cast<int>(where.size()));
    if (inserted) where.push_back(mesh.vertices[v]);
    welded[v] = it->second;
  }
  const auto key = [](int a, int b) { return (static_cast<std::uint64_t>(a) << 32) | static_cast<std::uint32_t>(b); };
  std::unordered_map<std::uint64_t, int> edges;  // directed edge → number of triangles running along it
  edges.reserve(3 * mesh.triangles.size());
  std::vector<int> up(where.size());
  for (std::size_t v = 0; v < up.size(); ++v) up[v] = static_cast<int>(v);
  for (const auto& t : mesh.triangles) {
    const int a = welded[t[0]], b = welded[t[1]], c = welded[t[2]];
    if (a == b || b == c || c == a) continue;
    ++edges[key(a, b)];
    ++edges[key(b, c)];
    ++edges[key(c, a)];
    up[findRoot(up, b)] = findRoot(up, a);
    up[findRoot(up, c)] = findRoot(up, a);
  }
  for (const auto& [e, forward] : edges) {
    const int a = static_cast<int>(e >> 32), b = static_cast<int>(e & 0xffffffffu);
    const auto back = edges.find(key(b, a));
    const int backward = back == edges.end() ? 0 : back->second;
    if (forward + backward == 2 && forward == 1) continue;  // shared once in each direction: as it should be
    const std::string edge = "the edge from " + point(where[a]) + " to " + point(where[b]);
    if (forward + backward == 1) {
      error = "the surface is not closed: " + edge + " belongs to one triangle only (a hole or a missing face)";
      return false;
    }
    if (forward + backward > 2) {
      error = "the surface is not a simple closed surface: " + edge + " is shared by " +
              std::to_string(forward + backward) + " triangles";
      return false;
    }
    if (forward == 2) {
      error = "the triangles are not consistently oriented: two triangles run along " + edge +
              " in the same direction (one of them is wound the other way)";
      return false;
    }
  }
  // Signed volume of each connected part (divergence theorem, as in meshMassProperties).
  std::unordered_map<int, double> volume;
  for (const auto& t : mesh.triangles) {
    const int a = welded[t[0]], b = welded[t[1]], c = welded[t[2]];
    if (a == b || b == c || c == a) continue;
    volume[findRoot(up, a)] += where[a].dot(where[b].cross(where[c])) / 6.0;
  }
  if (volume.empty()) {
    error = "the surface has no triangles with three distinct corners";
    return false;
  }
  for (const auto& [root, v] : volume) {
    if (!std::isfinite(v)) {
      error = "the volume of the part containing " + point(where[root]) + " is not a finite number";
      return false;
    }
    if (v < 0.0) {
      error = "the closed part containing " + point(where[root]) +
              " is wound inside out (its triangles must be counter-clockwise seen from outside)";
      return false;
    }
    if (!(v > 0.0)) {
      error = "the closed part containing " + point(where[root]) + " encloses no volume";
      return false;
    }
  }
  return true;
}

std::string resolveMeshPath(const std::string& meshPath, const std::string& modelDirectory) {
  const std::filesystem::path p(meshPath);
  if (p.is_absolute() || modelDirectory.empty()) return meshPath;
  return (std::filesystem::path(modelDirectory) / p).lexically_normal().string();
}

}  // namespace kt
