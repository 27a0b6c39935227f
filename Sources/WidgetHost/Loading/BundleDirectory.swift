import Glibc
import WidgetSupport
import WidgetWire

/// A bundle with resources (`NAME.widgetbundle`, see `ResourceBundleLayout`), checked as a lone `.so`
/// is, every file of it: the directory (or what a link to it resolves to) and each entry inside are
/// owned by the user or root and writable by no one else, no entry inside is a link, a device, a FIFO
/// or setuid, and `NAME.so` inside passes every check of a lone shared object (the directories above
/// it included) and is what gets loaded, from its descriptor.
///
/// Races: the resources are read by path after these checks, by the bundle's own SDK. That is safe
/// for the reason sshd's checks are: nobody but the user and root can change a file or directory the
/// check accepted, nor anything above it.
///
/// As the registry cache knows a bundle, its size is the sum of its files' and its modification time
/// the latest of them, so an edited string table or picture is a changed bundle.
extension BundleFile {
    /// The most entries a bundle directory may hold, and how deep: a bundle with more is refused
    /// rather than walked for ever.
    static let maximumEntries = 10_000
    static let maximumDepth = 16

    static func directory(_ path: String, verdicts: DirectoryVerdicts, opening: Bool) -> Result<BundleFile, LoadProblem> {
        func refuse(_ reason: LoadProblem.Reason, _ message: String) -> Result<BundleFile, LoadProblem> {
            .failure(LoadProblem(path: path, reason: reason, message: message))
        }
        var link = stat()
        guard lstat(path, &link) == 0 else { return refuse(.unreadable, "cannot read: \(errnoText())") }
        var info = link
        if link.st_mode & S_IFMT == S_IFLNK, stat(path, &info) != 0 { return .failure(unopened(path, isLink: true, errno)) }
        guard info.st_mode & S_IFMT == S_IFDIR else {
            return refuse(.notRegularFile, "named .\(ResourceBundleLayout.pathExtension) but not a directory (\(fileType(info.st_mode)))")
        }
        let summary: TreeSummary
        switch checkTree(path) {
        case .failure(let refusal): return refuse(refusal.reason, refusal.message)
        case .success(let checked): summary = checked
        }
        let executable = ResourceBundleLayout.executable(path)
        let name = executable.pathFileName
        var inner = stat()
        guard lstat(executable, &inner) == 0 else {
            return refuse(.notSharedObject, "not a widget bundle: it has no \(name) inside (widgets build makes one)")
        }
        // The shared object inside, with every check a lone one gets (the directories above too).
        let file = opening ? openFile(executable, verdicts: verdicts) : examineFile(executable, verdicts: verdicts)
        switch file {
        case .failure(let problem):
            return .failure(LoadProblem(path: path, reason: problem.reason, message: "\(name): \(problem.message)"))
        case .success(let file):
            return .success(
                BundleFile(path: path, device: file.device, inode: file.inode, size: summary.size, modified: summary.modified, descriptor: file.descriptor))
        }
    }

    struct TreeSummary {
        var size: Int64 = 0
        var modified: Int64 = 0
        var entries = 0
    }

    struct TreeRefusal: Error {
        let reason: LoadProblem.Reason
        let message: String
    }

    /// Walks the directory at `path` (following it, if it is a link) and everything inside, never
    /// following a link inside.
    static func checkTree(_ path: String) -> Result<TreeSummary, TreeRefusal> {
        let descriptor = Glibc.open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return .failure(TreeRefusal(reason: .unreadable, message: "cannot read: \(errnoText())")) }
        var summary = TreeSummary()
        var top = stat()
        guard fstat(descriptor, &top) == 0 else {
            _ = Glibc.close(descriptor)
            return .failure(TreeRefusal(reason: .unreadable, message: "cannot read: \(errnoText())"))
        }
        if let refusal = entryRefusal(top, inside: nil) {
            _ = Glibc.close(descriptor)
            return .failure(refusal)
        }
        do {
            try walk(descriptor, relative: "", depth: 0, into: &summary)
        } catch {
            return .failure(error)
        }
        return .success(summary)
    }

    /// Checks the entries of the open directory `descriptor` (which it closes), recursively.
    private static func walk(_ descriptor: Int32, relative: String, depth: Int, into summary: inout TreeSummary) throws(TreeRefusal) {
        guard let stream = fdopendir(descriptor) else {
            _ = Glibc.close(descriptor)
            throw TreeRefusal(reason: .unreadable, message: "cannot list \(relative.isEmpty ? "it" : relative): \(errnoText())")
        }
        defer { closedir(stream) }
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name == "." || name == ".." { continue }
            let inside = relative.isEmpty ? name : relative + "/" + name
            summary.entries += 1
            guard summary.entries <= maximumEntries else {
                throw TreeRefusal(reason: .invalidBundle, message: "refused: more than \(maximumEntries) files inside")
            }
            var info = stat()
            guard fstatat(dirfd(stream), name, &info, AT_SYMLINK_NOFOLLOW) == 0 else {
                throw TreeRefusal(reason: .unreadable, message: "cannot read \(inside) inside it: \(errnoText())")
            }
            if let refusal = entryRefusal(info, inside: inside) { throw refusal }
            let modified = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
            summary.modified = max(summary.modified, modified)
            if info.st_mode & S_IFMT == S_IFDIR {
                guard depth < maximumDepth else {
                    throw TreeRefusal(reason: .invalidBundle, message: "refused: directories nested more than \(maximumDepth) deep inside")
                }
                let child = openat(dirfd(stream), name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
                guard child >= 0 else { throw TreeRefusal(reason: .unreadable, message: "cannot read \(inside) inside it: \(errnoText())") }
                try walk(child, relative: inside, depth: depth + 1, into: &summary)
            } else {
                summary.size += Int64(info.st_size)
            }
        }
    }

    /// Why an entry of a bundle directory (nil: the directory itself) is refused, or nil.
    private static func entryRefusal(_ info: stat, inside: String?) -> TreeRefusal? {
        let what = inside.map { "\($0) inside it" } ?? "the bundle directory"
        let type = info.st_mode & S_IFMT
        if let inside, type != S_IFREG && type != S_IFDIR {
            let kind = type == S_IFLNK ? "a symbolic link (a bundle's files must be its own)" : fileType(info.st_mode)
            return TreeRefusal(reason: .insecurePermissions, message: "refused: \(inside) inside it is \(kind)")
        }
        let user = getuid()
        if info.st_uid != user && info.st_uid != 0 {
            return TreeRefusal(
                reason: .insecurePermissions, message: "refused: \(what) is owned by \(owner(info.st_uid)), not by \(trusted(user))")
        }
        if info.st_mode & (S_ISUID | S_ISGID) != 0 {
            return TreeRefusal(reason: .insecurePermissions, message: "refused: \(what) is setuid or setgid (mode \(octal(info.st_mode))); run 'chmod -R ug-s' on the bundle")
        }
        if info.st_mode & (S_IWGRP | S_IWOTH) != 0 {
            return TreeRefusal(
                reason: .insecurePermissions,
                message: "refused: \(what) is writable by group or others (mode \(octal(info.st_mode))); run 'chmod -R go-w' on the bundle")
        }
        return nil
    }
}
