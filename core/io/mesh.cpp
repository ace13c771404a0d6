// SPDX-License-Identifier: BSD-3-Clause
#include "core/io/mesh.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <mutex>
#include <sstream>
#include <unordered_map>

namespace kt {
namespace {

constexpr std::uintmax_t kMaxMeshBytes = 256u * 1024u * 1024u;

// Reads a regular file. `refuse` is asked once the path is known to be a regular file, before
// reading it; a non-empty answer is the error.
bool readFile(const std::string& path, std::string& bytes, std::string& error,
              const std::function<std::string()>& refuse) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::file_status st = fs::status(path, ec);
  if (st.type() == fs::file_type::not_found) {
    error = "does not exist";
    return false;
  }
  if (ec) {
    error = "cannot be read: " + ec.message();
    return false;
  }
  if (st.type() == fs::file_type::directory) {
    error = "is a directory, not a mesh file";
    return false;
  }
  if (st.type() != fs::file_type::regular) {  // devices, FIFOs, sockets: no size, may never end
    error = "is not a regular file";
    return false;
  }
  error = refuse();
  if (!error.empty()) return false;
  const auto size = fs::file_size(path, ec);
  if (ec) {
    error = "cannot be read: " + ec.message();
    return false;
  }
  if (size > kMaxMeshBytes) {
    error = "is larger than 256 MiB";
    return false;
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    error = "cannot be opened for reading";
    return false;
  }
  bytes.resize(static_cast<std::size_t>(size));
  in.read(bytes.data(), static_cast<std::streamsize>(size));
  if (static_cast<std::uintmax_t>(in.gcount()) != size) {
    error = "cannot be read (it changed while it was read)";
    return false;
  }
  return true;
}

// Locale-independent number parsing of one whitespace-delimited token.
bool parseDouble(std::string_view token, double& out) {
  if (!token.empty() && token.front() == '+') token.remove_prefix(1);
  const auto [ptr, ec] = std::from_chars(token.data(), token.data() + token.size(), out);
  return ec == std::errc() && ptr == token.data() + token.size() && std::isfinite(out);
}

std::vector<std::string_view> splitWhitespace(std::string_view line) {
  std::vector<std::string_view> out;
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && std::isspace(static_cast<unsigned char>(line[i]))) ++i;
    const std::size_t start = i;
    while (i < line.size() && !std::isspace(static_cast<unsigned char>(line[i]))) ++i;
    if (i > start) out.push_back(line.substr(start, i - start));
  }
  return out;
}

bool parseBinaryStl(const std::string& bytes, TriangleMesh& mesh) {
  std::uint32_t n = 0;
  std::memcpy(&n, bytes.data() + 80, 4);
  mesh.vertices.reserve(3u * n);
  mesh.triangles.reserve(n);
  for (std::uint32_t t = 0; t < n; ++t) {
    const char* rec = bytes.data() + 84 + 50u * t;
    std::array<int, 3> tri{};
    for (int k = 0; k < 3; ++k) {
      float xyz[3];
      std::memcpy(xyz, rec + 12 + 12 * k, 12);
      if (!std::isfinite(xyz[0]) || !std::isfinite(xyz[1]) || !std::isfinite(xyz[2])) return false;
      tri[k] = static_cast<int>(mesh.vertices.size());
      mesh.vertices.emplace_back(xyz[0], xyz[1], xyz[2]);
    }
    mesh.triangles.push_back(tri);
  }
  return true;
}

// ASCII: "solid …  facet normal …  outer loop  vertex x y z (×3)  endloop  endfacet … endsolid".
bool parseAsciiStl(const std::string& bytes, TriangleMesh& mesh, std::string& error) {
  mesh = {};
  std::istringstream in(bytes);
  std::string line;
  int lineNo = 0;
  std::vector<int> pending;
  bool inFacet = false;
  while (std::getline(in, line)) {
    ++lineNo;
    const auto tok = splitWhitespace(line);
    if (tok.empty()) continue;
    if (tok[0] == "vertex") {
      Vec3 p;
      if (tok.size() != 4 || !parseDouble(tok[1], p.x()) || !parseDouble(tok[2], p.y()) ||
          !parseDouble(tok[3], p.z())) {
        error = "STL line " + std::to_string(lineNo) + ": expected 'vertex x y z' with three finite numbers";
        return false;
      }
      pending.push_back(static_cast<int>(mesh.vertices.size()));
      mesh.vertices.push_back(p);
    } else if (tok[0] == "facet") {
      inFacet = true;
    } else if (tok[0] == "endfacet") {
      inFacet = false;
    } else if (tok[0] == "endloop") {
      if (pending.size() < 3) {
        error = "STL line " + std::to_string(lineNo) + ": a facet needs three vertices";
        return false;
      }
      for (std::size_t k = 1; k + 1 < pending.size(); ++k)
        mesh.triangles.push_back({pending[0], pending[k], pending[k + 1]});
      pending.clear();
    } else if (tok[0] != "solid" && tok[0] != "outer" && tok[0] != "endsolid") {
      error = "STL line " + std::to_string(lineNo) + ": unexpected '" + std::string(tok[0]) +
              "' (not an ASCII STL file, and the size does not match a binary STL)";
      return false;
    }
  }
  if (!pending.empty() || inFacet) {
    error = "STL line " + std::to_string(lineNo) + ": the file ends inside a facet (is it cut short?)";
    return false;
  }
  if (mesh.triangles.empty()) {
    error = "STL file has no triangles";
    return false;
  }
  return true;
}

}  // namespace

bool parseStl(const std::string& bytes, TriangleMesh& mesh, std::string& error) {
  mesh = {};
  // Binary: an 80-byte header, the triangle count n, then n records of 50 bytes. Files with a
  // few bytes after the last record (padding written by some exporters) are read with the n
  // triangles the header gives, as VTK's reader does; text that starts with "solid" is tried
  // as ASCII first, since ASCII files cannot be told apart by their size alone.
  bool binary = false;
  if (bytes.size() >= 84) {
    std::uint32_t n = 0;
    std::memcpy(&n, bytes.data() + 80, 4);
    const std::uint64_t needed = 84 + 50ull * n;
    if (bytes.size() == needed) {
      binary = true;
    } else if (bytes.size() > needed && n > 0) {
      std::size_t i = 0;
      while (i < bytes.size() && std::isspace(static_cast<unsigned char>(bytes[i]))) ++i;
      binary = bytes.compare(i, 5, "solid") != 0;
      if (!binary) {
        TriangleMesh ascii;
        std::string why;
        if (parseAsciiStl(bytes, ascii, why)) {
          mesh = std::move(ascii);
          return true;
        }
        binary = true;
      }
    }
  }
  if (binary) {
    if (!parseBinaryStl(bytes, mesh)) {
      error = "binary STL has a non-finite vertex coordinate";
      return false;
    }
    if (mesh.triangles.empty()) {
      error = "STL file has no triangles";
      return false;
    }
    return true;
  }
  return parseAsciiStl(bytes, mesh, error);
}

bool parseObj(const std::string& text, TriangleMesh& mesh, std::string& error) {
  mesh = {};
  std::istringstream in(text);
  std::string line;
  int lineNo = 0;
  while (std::getline(in, line)) {
    ++lineNo;
    const auto tok = splitWhitespace(line);
    if (tok.empty() || tok[0].front() == '#') continue;
    if (tok[0] == "v") {
      Vec3 p;
      if (tok.size() < 4 || !parseDouble(tok[1], p.x()) || !parseDouble(tok[2], p.y()) || !parseDouble(tok[3], p.z())) {
        error = "OBJ line " + std::to_string(lineNo) + ": expected 'v x y z' with three finite numbers";
        return false;
      }
      mesh.vertices.push_back(p);
    } else if (tok[0] == "f") {
      std::vector<int> idx;
      for (std::size_t k = 1; k < tok.size(); ++k) {
        const std::string_view first = tok[k].substr(0, tok[k].find('/'));
        long v = 0;
        const auto [ptr, ec] = std::from_chars(first.data(), first.data() + first.size(), v);
        const long nv = static_cast<long>(mesh.vertices.size());
        if (ec == std::errc::result_out_of_range ||
            (ec == std::errc() && ptr == first.data() + first.size() && (v == 0 || v > nv || v < -nv))) {
          error = "OBJ line " + std::to_string(lineNo) + ": vertex index '" + std::string(first) +
                  "' is out of range; " + std::to_string(nv) + " vertices are defined before this line (1 to " +
                  std::to_string(nv) + ", or -1 to -" + std::to_string(nv) + " counting back)";
          return false;
        }
        if (ec != std::errc() || ptr != first.data() + first.size()) {
          error = "OBJ line " + std::to_string(lineNo) + ": bad vertex index '" + std::string(tok[k]) +
                  "'; expected a whole number";
          return false;
        }
        idx.push_back(static_cast<int>(v > 0 ? v - 1 : nv + v));
      }
      if (idx.size() < 3) {
        error = "OBJ line " + std::to_string(lineNo) + ": a face needs at least three vertices";
        return false;
      }
      for (std::size_t k = 1; k + 1 < idx.size(); ++k) mesh.triangles.push_back({idx[0], idx[k], idx[k + 1]});
    }
    // Other records (vn, vt, o, g, s, usemtl, mtllib, l) do not affect the solid.
  }
  if (mesh.triangles.empty()) {
    error = "OBJ file has no faces";
    return false;
  }
  return true;
}

bool readMesh(const std::string& path, TriangleMesh& mesh, std::string& error) {
  std::string ext = std::filesystem::path(path).extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return std::tolower(c); });
  std::string bytes;
  std::string why;
  // What the path is comes first ("is a directory" says more than "unsupported extension").
  const auto refuse = [&] {
    return ext == ".stl" || ext == ".obj" ? std::string() : "has an unsupported extension; expected .stl or .obj";
  };
  if (!readFile(path, bytes, why, refuse)) {
    error = "mesh file '" + path + "' " + why;
    return false;
  }
  const bool ok = ext == ".stl" ? parseStl(bytes, mesh, why) : parseObj(bytes, mesh, why);
  if (!ok) error = "mesh file '" + path + "': " + why;
  return ok;
}

bool meshFileReadable(const std::string& path, std::string& error) {
  struct Verdict {
    std::uintmax_t size = 0;
    std::filesystem::file_time_type modified;
    std::string error;  // empty when readable
  };
  static std::mutex mutex;
  static std::unordered_map<std::string, Verdict> verdicts;
  std::error_code ec;
  const bool regular = std::filesystem::is_regular_file(path, ec);
  Verdict now;
  if (regular) {
    now.size = std::filesystem::file_size(path, ec);
    now.modified = std::filesystem::last_write_time(path, ec);
  }
  if (regular && !ec) {
    const std::lock_guard<std::mutex> lock(mutex);
    if (const auto it = verdicts.find(path);
        it != verdicts.end() && it->second.size == now.size && it->second.modified == now.modified) {
      error = it->second.error;
      return error.empty();
    }
  }
  TriangleMesh mesh;
  const bool ok = readMesh(path, mesh, error);
  if (regular && !ec) {
    now.error = ok ? std::string() : error;
    const std::lock_guard<std::mutex> lock(mutex);
    if (verdicts.size() >= 4096) verdicts.clear();
    verdicts[path] = std::move(now);
  }
  return ok;
}

namespace {

// Mesh files on disk, as the model layer asks for them.
class MeshFiles final : public MeshSource {
 public:
  bool read(const std::string& path, TriangleMesh& mesh, std::string& error) const override {
    return readMesh(path, mesh, error);
  }
  bool readable(const std::string& path, std::string& error) const override { return meshFileReadable(path, error); }
};

}  // namespace

const MeshSource& meshFiles() {
  static const MeshFiles files;
  return files;
}

}  // namespace kt
