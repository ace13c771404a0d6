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
#include <optional>
#include <sstream>
#include <unordered_map>

#include <assimp/DefaultIOSystem.h>
#include <assimp/GltfMaterial.h>
#include <assimp/config.h>
#include <assimp/material.h>
#include <assimp/postprocess.h>
#include <assimp/scene.h>
#include <assimp/Importer.hpp>

#include "core/io/urdf/xml_limits.hpp"

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

// The name of a format for messages, by its extension.
std::string formatName(const std::string& ext) {
  if (ext == ".dae") return "COLLADA";
  if (ext == ".ply") return "PLY";
  return "glTF";
}

// A material's colour: its diffuse colour, else its base colour (glTF), with its opacity (1 for
// a glTF material whose alpha mode is OPAQUE, as the format says). None for a material that stands
// for "no material" (Assimp's default, glTF's unnamed white fallback), one drawn by a texture, or
// one whose numbers are not finite.
bool materialColor(const aiMaterial* material, bool gltf, std::array<float, 4>& out) {
  if (!material) return false;
  aiString name;
  const bool named = material->Get(AI_MATKEY_NAME, name) == AI_SUCCESS && name.length > 0;
  if (named && std::strcmp(name.C_Str(), AI_DEFAULT_MATERIAL_NAME) == 0) return false;
  if (material->GetTextureCount(aiTextureType_DIFFUSE) > 0 || material->GetTextureCount(aiTextureType_BASE_COLOR) > 0)
    return false;
  aiColor4D c;
  if (material->Get(AI_MATKEY_COLOR_DIFFUSE, c) != AI_SUCCESS && material->Get(AI_MATKEY_BASE_COLOR, c) != AI_SUCCESS)
    return false;
  // glTF's stand-in for "no material" has no name and the format's default white; a material of
  // the file may lack a name too, but then it has a colour of its own
  if (gltf && !named && c.r == 1.0f && c.g == 1.0f && c.b == 1.0f) return false;
  float opacity = c.a;
  if (float o = 1.0f; material->Get(AI_MATKEY_OPACITY, o) == AI_SUCCESS) opacity = o;
  if (aiString mode;
      gltf && material->Get(AI_MATKEY_GLTF_ALPHAMODE, mode) == AI_SUCCESS && std::strcmp(mode.C_Str(), "OPAQUE") == 0)
    opacity = 1.0f;
  if (!std::isfinite(c.r) || !std::isfinite(c.g) || !std::isfinite(c.b) || !std::isfinite(opacity)) return false;
  out = {std::clamp(c.r, 0.0f, 1.0f), std::clamp(c.g, 0.0f, 1.0f), std::clamp(c.b, 0.0f, 1.0f),
         std::clamp(opacity, 0.0f, 1.0f)};
  return true;
}

// The files Assimp may open for a mesh (a glTF's buffers): regular files in the mesh's folder or
// below it, all of them together no larger than kMaxMeshBytes. A FIFO or device would never end,
// and a path out of the folder is not the mesh's.
class MeshFolderIO final : public Assimp::DefaultIOSystem {
 public:
  explicit MeshFolderIO(const std::filesystem::path& meshFile)
      : folder_(std::filesystem::absolute(meshFile).parent_path().lexically_normal()) {}

  bool Exists(const char* file) const override { return allowed(file); }

  Assimp::IOStream* Open(const char* file, const char* mode) override {
    if (!allowed(file) || std::strchr(mode, 'w') != nullptr) return nullptr;
    std::error_code ec;
    const std::uintmax_t size = std::filesystem::file_size(file, ec);
    if (ec || size > kMaxMeshBytes - opened_) return nullptr;
    opened_ += size;
    return Assimp::DefaultIOSystem::Open(file, mode);
  }

 private:
  bool allowed(const char* file) const {
    namespace fs = std::filesystem;
    std::error_code ec;
    const fs::path p = fs::absolute(fs::path(file), ec).lexically_normal();
    if (ec || !fs::is_regular_file(p, ec) || ec) return false;
    const fs::path relative = p.lexically_relative(folder_);
    return !relative.empty() && *relative.begin() != "..";
  }

  std::filesystem::path folder_;
  std::uintmax_t opened_ = 0;
};

// Nesting that Assimp's readers recurse into once per level (a file of 20,000 nested COLLADA
// nodes, or a glTF chain of 50,000 nodes, overflowed the stack): refused before they read it.
std::string tooDeep(const std::string& ext, const std::string& bytes) {
  if (ext == ".dae") {
    if (const std::optional<XmlTextProblem> problem = checkXmlText(bytes))
      return "COLLADA: line " + std::to_string(problem->line) + ", column " + std::to_string(problem->column) + ": " +
             problem->message;
    return {};
  }
  if (ext == ".gltf" || ext == ".glb") {
    // every level of a node hierarchy takes a "children" list: their number bounds its depth
    constexpr std::size_t kMaxChildLists = 1000;
    std::size_t lists = 0;
    for (std::size_t at = bytes.find("\"children\""); at != std::string::npos; at = bytes.find("\"children\"", at + 1))
      if (++lists > kMaxChildLists)
        return "glTF: more than " + std::to_string(kMaxChildLists) +
               " nodes with children (a mesh file's node hierarchy is expected to be small)";
  }
  return {};
}

// COLLADA, PLY and glTF through Assimp (see the header): the scene's triangles in its root frame.
// `bytes` is the file's content (checked for nesting; COLLADA and PLY are read from it).
bool readWithAssimp(const std::string& path, const std::string& ext, const std::string& bytes, TriangleMesh& mesh,
                    std::string& error) {
  if (std::string deep = tooDeep(ext, bytes); !deep.empty()) {
    error = deep;
    return false;
  }
  Assimp::Importer importer;
  importer.SetPropertyBool(AI_CONFIG_IMPORT_COLLADA_IGNORE_UP_DIRECTION, true);
  importer.SetPropertyInteger(AI_CONFIG_PP_SBP_REMOVE, aiPrimitiveType_POINT | aiPrimitiveType_LINE);
  constexpr unsigned kSteps =
      aiProcess_ValidateDataStructure | aiProcess_Triangulate | aiProcess_JoinIdenticalVertices | aiProcess_SortByPType;
  const bool gltf = ext == ".gltf" || ext == ".glb";
  const aiScene* scene = nullptr;
  if (gltf) {  // its buffers may be files beside it
    importer.SetIOHandler(new MeshFolderIO(path));
    scene = importer.ReadFile(path, kSteps);
  } else {  // one file: read from what was read and checked
    scene = importer.ReadFileFromMemory(bytes.data(), bytes.size(), kSteps, ext.c_str() + 1);
  }
  if (!scene || !scene->mRootNode || (scene->mFlags & AI_SCENE_FLAGS_INCOMPLETE) != 0) {
    std::string why = importer.GetErrorString();
    while (!why.empty() && (why.back() == '\n' || why.back() == '.')) why.pop_back();
    if (why.empty() || why.find("No meshes") != std::string::npos || why.find("no scene") != std::string::npos)
      why = "the file holds no triangles (only points or lines, or nothing)";
    error = formatName(ext) + ": " + why;
    return false;
  }
  bool colored = false;
  std::vector<std::array<float, 4>> colors;
  // depth first, without recursion (a file may nest nodes deeply)
  std::vector<std::pair<const aiNode*, Eigen::Matrix4d>> stack = {{scene->mRootNode, Eigen::Matrix4d::Identity()}};
  while (!stack.empty()) {
    const auto [node, parent] = stack.back();
    stack.pop_back();
    Eigen::Matrix4d local;
    const aiMatrix4x4& m = node->mTransformation;
    local << m.a1, m.a2, m.a3, m.a4, m.b1, m.b2, m.b3, m.b4, m.c1, m.c2, m.c3, m.c4, m.d1, m.d2, m.d3, m.d4;
    const Eigen::Matrix4d T = parent * local;
    const bool mirrored = T.topLeftCorner<3, 3>().determinant() < 0.0;  // keeps the triangles outward
    for (unsigned k = 0; k < node->mNumMeshes; ++k) {
      if (node->mMeshes[k] >= scene->mNumMeshes) continue;
      const aiMesh* part = scene->mMeshes[node->mMeshes[k]];
      if (!part || (part->mPrimitiveTypes & aiPrimitiveType_TRIANGLE) == 0) continue;
      std::array<float, 4> partColor = kNoMeshColor;
      // a PLY's colours are its vertices'; its material is Assimp's stand-in
      const bool hasMaterial =
          ext != ".ply" &&
          materialColor(part->mMaterialIndex < scene->mNumMaterials ? scene->mMaterials[part->mMaterialIndex] : nullptr,
                        gltf, partColor);
      const bool hasVertexColors = part->HasVertexColors(0);
      colored = colored || hasMaterial || hasVertexColors;
      const int base = static_cast<int>(mesh.vertices.size());
      for (unsigned v = 0; v < part->mNumVertices; ++v) {
        const aiVector3D& a = part->mVertices[v];
        const Eigen::Vector4d p = T * Eigen::Vector4d(a.x, a.y, a.z, 1.0);
        if (!p.allFinite()) {
          error = formatName(ext) + ": a vertex is not a finite number";
          return false;
        }
        mesh.vertices.emplace_back(p.head<3>());
      }
      for (unsigned f = 0; f < part->mNumFaces; ++f) {
        const aiFace& face = part->mFaces[f];
        if (face.mNumIndices != 3) continue;
        if (face.mIndices[0] >= part->mNumVertices || face.mIndices[1] >= part->mNumVertices ||
            face.mIndices[2] >= part->mNumVertices) {
          error = formatName(ext) + ": a face's vertex index is out of range";
          return false;
        }
        std::array<int, 3> t{base + static_cast<int>(face.mIndices[0]), base + static_cast<int>(face.mIndices[1]),
                             base + static_cast<int>(face.mIndices[2])};
        if (mirrored) std::swap(t[1], t[2]);
        mesh.triangles.push_back(t);
        std::array<float, 4> c = partColor;
        if (hasVertexColors) {  // the vertices' colours: their mean over the triangle
          c = {0.0f, 0.0f, 0.0f, 0.0f};
          for (const unsigned i : {face.mIndices[0], face.mIndices[1], face.mIndices[2]}) {
            const aiColor4D& vc = part->mColors[0][i];
            c[0] += vc.r / 3.0f, c[1] += vc.g / 3.0f, c[2] += vc.b / 3.0f, c[3] += vc.a / 3.0f;
          }
          const bool finite = std::all_of(c.begin(), c.end(), [](float x) { return std::isfinite(x); });
          if (finite)
            for (float& x : c) x = std::clamp(x, 0.0f, 1.0f);
          else
            c = kNoMeshColor;
        }
        colors.push_back(c);
      }
    }
    for (unsigned c = node->mNumChildren; c-- > 0;) stack.emplace_back(node->mChildren[c], T);
  }
  if (mesh.triangles.empty()) {
    error = formatName(ext) + ": the file holds no triangles (only points or lines, or nothing)";
    return false;
  }
  if (colored) mesh.colors = std::move(colors);
  return true;
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

const std::vector<std::string>& meshExtensions() {
  static const std::vector<std::string> extensions = {".stl", ".obj", ".dae", ".ply", ".gltf", ".glb"};
  return extensions;
}

bool isMeshExtension(std::string extension) {
  std::transform(extension.begin(), extension.end(), extension.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  const std::vector<std::string>& all = meshExtensions();
  return std::find(all.begin(), all.end(), extension) != all.end();
}

std::string meshFormatsText() { return "an .stl, .obj, .dae, .ply, .gltf or .glb file"; }

bool readMesh(const std::string& path, TriangleMesh& mesh, std::string& error) {
  std::string ext = std::filesystem::path(path).extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return std::tolower(c); });
  std::string bytes;
  std::string why;
  // What the path is comes first ("is a directory" says more than "unsupported extension").
  const auto refuse = [&] {
    return isMeshExtension(ext) ? std::string() : "has an unsupported extension; expected " + meshFormatsText();
  };
  if (!readFile(path, bytes, why, refuse)) {
    error = "mesh file '" + path + "' " + why;
    return false;
  }
  mesh = {};
  const bool ok = ext == ".stl"   ? parseStl(bytes, mesh, why)
                  : ext == ".obj" ? parseObj(bytes, mesh, why)
                                  : readWithAssimp(path, ext, bytes, mesh, why);
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
