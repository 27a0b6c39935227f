import FoundationEssentials
import WidgetSupport

/// Finds the folders of Swift packages a project uses where Xcode would have fetched or been told
/// them: a clone of a remote package kept beside the project (Xcode fetches; `widgets build` does
/// not, so the user clones it), and the local package providing a product the project names
/// without saying which package it comes from (packages added as plain folders before Xcode 15, or
/// kept in a folder-synchronized group).
enum PackageLocator {
    /// The folders a clone of a remote package is looked for in, nearest first: the folder itself,
    /// its parent, and the folders projects keep local packages in.
    static func cloneFolders(near folders: [String]) -> [String] {
        var result: [String] = []
        for folder in folders {
            for candidate in [folder, folder.pathDirectory, folder + "/Packages", folder + "/LocalPackages", folder + "/Dependencies", folder + "/.build/checkouts"]
            where !result.contains(candidate) {
                result.append(candidate)
            }
        }
        return result
    }

    /// The repository's name in a package URL: `https://github.com/owner/Name.git` is "Name".
    static func repositoryName(_ url: String) -> String {
        var name = url
        while name.hasSuffix("/") { name.removeLast() }
        name = name.pathFileName
        if name.lowercased().hasSuffix(".git") { name.removeLast(4) }
        return name
    }

    /// A clone of the remote package at `url` in one of `folders`' usual places: a folder named as
    /// its repository (letter case aside) holding a `Package.swift`.
    static func clone(of url: String, near folders: [String]) -> String? {
        let name = repositoryName(url).lowercased()
        guard !name.isEmpty else { return nil }
        for folder in cloneFolders(near: folders) {
            for entry in ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted() where entry.lowercased() == name {
                let path = folder + "/" + entry
                if FileManager.default.fileExists(atPath: path + "/Package.swift") { return XcodeProject.normalized(path) }
            }
        }
        return nil
    }

    /// Folders holding a `Package.swift` under `root`, at most `depth` levels down, outside build
    /// products, hidden folders and bundles.
    static func packages(under root: String, depth: Int) -> [String] {
        var found: [String] = []
        func walk(_ folder: String, level: Int) {
            guard found.count < 256 else { return }
            if level > 0, FileManager.default.fileExists(atPath: folder + "/Package.swift") {
                found.append(folder)
                return
            }
            guard level < depth else { return }
            for name in ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted() {
                guard !name.hasPrefix("."), !["build", "DerivedData", "Pods", "node_modules", "Carthage"].contains(name),
                    !name.contains(".xc"), !name.hasSuffix(".widgetbundle"), !name.hasSuffix(".app")
                else { continue }
                var isDirectory = false
                if FileManager.default.fileExists(atPath: folder + "/" + name, isDirectory: &isDirectory), isDirectory {
                    walk(folder + "/" + name, level: level + 1)
                }
            }
        }
        walk(root, level: 0)
        return found
    }

    /// Whether the manifest in `folder` declares a library product named `product`.
    static func declares(_ product: String, in folder: String) -> Bool {
        guard let text = try? String(contentsOfFile: folder + "/Package.swift", encoding: .utf8) else { return false }
        let compact = text.filter { !$0.isWhitespace }
        return compact.contains(".library(name:\"\(product)\"")
    }

    /// Of `candidates`, the one package that declares `product`, or of those (or, when no manifest
    /// says so in its text, a product named by a variable, of all) the one folder named as the
    /// product.
    static func provider(of product: String, among candidates: [String]) -> String? {
        let unique = candidates.reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
        let declaring = unique.filter { declares(product, in: $0) }
        if declaring.count == 1 { return declaring[0] }
        let named = (declaring.isEmpty ? unique : declaring).filter { $0.pathFileName.lowercased() == product.lowercased() }
        return named.count == 1 ? named[0] : nil
    }
}
