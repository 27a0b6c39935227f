import FoundationEssentials
import Glibc
import Synchronization
import WidgetSupport
import WidgetWire

/// A bundle file, opened once and checked through that very descriptor before the host lets the
/// dynamic loader near it, and then loaded from the descriptor itself (`/proc/self/fd/N`): the file
/// checked is the file loaded, whatever is renamed over its path meanwhile.
///
/// What is checked, as sshd checks a key file (its `secure_filename` rule): the path names a regular
/// file (or a symbolic link to one), opened without waiting (a FIFO swapped in cannot hang the
/// host); the file is owned by the user running the host or by root, is not writable by group or
/// others, and is neither setuid nor setgid; every directory from it up to `/`, along the path as
/// written and along the path it resolves to, is owned by the user or root and is not writable by
/// group or others, unless sticky (as `/tmp` is: no one else may rename or remove what is in it).
/// Then the file is a complete ELF shared object for this machine.
struct BundleFile {
    let path: String
    let device: UInt64
    let inode: UInt64
    /// Its size and modification time (nanoseconds since 1970), as `fstat` gave them: with the
    /// device and inode, what the registry cache knows a file by.
    var size: Int64 = 0
    var modified: Int64 = 0
    /// The open descriptor (close-on-exec), until `close`; its path loads exactly this file. -1 for
    /// a file examined, not opened.
    let descriptor: Int32

    /// The path the dynamic loader is given: the open descriptor, not the name.
    var loadPath: String { "/proc/self/fd/\(descriptor)" }

    func close() { if descriptor >= 0 { _ = Glibc.close(descriptor) } }

    /// Opens and checks `path`. On success the descriptor stays open: the caller loads it, or closes it.
    /// `verdicts` keeps what a batch of files learned about their directories.
    static func open(_ path: String, verdicts: DirectoryVerdicts = DirectoryVerdicts()) -> Result<BundleFile, LoadProblem> {
        if ResourceBundleLayout.isBundleDirectory(path) { return directory(path, verdicts: verdicts, opening: true) }
        return openFile(path, verdicts: verdicts)
    }

    /// `open` of a lone shared object.
    static func openFile(_ path: String, verdicts: DirectoryVerdicts) -> Result<BundleFile, LoadProblem> {
        let flags = O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY
        // Opened as no link first: what is opened so is no link, known without an lstat of its own
        // (a walk of the whole path, for every file); a link (ELOOP) is looked at and followed.
        var descriptor = Glibc.open(path, flags | O_NOFOLLOW)
        var isLink = false
        if descriptor < 0 {
            guard errno == ELOOP else { return .failure(unopened(path, isLink: false, errno)) }
            var link = stat()
            guard lstat(path, &link) == 0 else { return .failure(LoadProblem(path: path, reason: .unreadable, message: "cannot read: \(errnoText())")) }
            isLink = link.st_mode & S_IFMT == S_IFLNK
            descriptor = Glibc.open(path, flags)
            guard descriptor >= 0 else { return .failure(unopened(path, isLink: isLink, errno)) }
        }
        func refuse(_ reason: LoadProblem.Reason, _ message: String) -> Result<BundleFile, LoadProblem> {
            _ = Glibc.close(descriptor)
            return .failure(LoadProblem(path: path, reason: reason, message: message))
        }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return refuse(.unreadable, "cannot read: \(errnoText())") }
        if let refusal = refusal(path, info, isLink: isLink, resolved: { openedPath(descriptor) }, verdicts: verdicts) {
            return refuse(refusal.0, refusal.1)
        }
        if let failure = checkELF(descriptor: descriptor, size: UInt64(info.st_size)) {
            return refuse(failure.0, failure.1)
        }
        return .success(BundleFile(path: path, info, descriptor: descriptor))
    }

    /// The checks of `open` made through `stat` (the file's owner and mode, the directories above
    /// it) and `access` (that it can be read), without the ELF header, which needs the file opened:
    /// how the host knows a file it need not load, because the registry cache has what this very
    /// file registered. Nothing is opened; the result has no descriptor. Some refusals read
    /// differently from `open`'s: a socket is "not a regular file" here, where opening it fails.
    static func examine(_ path: String, verdicts: DirectoryVerdicts = DirectoryVerdicts()) -> Result<BundleFile, LoadProblem> {
        if ResourceBundleLayout.isBundleDirectory(path) { return directory(path, verdicts: verdicts, opening: false) }
        return examineFile(path, verdicts: verdicts)
    }

    /// `examine` of a lone shared object.
    static func examineFile(_ path: String, verdicts: DirectoryVerdicts) -> Result<BundleFile, LoadProblem> {
        var link = stat()
        guard lstat(path, &link) == 0 else { return .failure(LoadProblem(path: path, reason: .unreadable, message: "cannot read: \(errnoText())")) }
        let isLink = link.st_mode & S_IFMT == S_IFLNK
        var info = link
        if isLink, stat(path, &info) != 0 { return .failure(unopened(path, isLink: true, errno)) }
        if let refusal = refusal(path, info, isLink: isLink, resolved: { resolvedPath(path) }, verdicts: verdicts) {
            return .failure(LoadProblem(path: path, reason: refusal.0, message: refusal.1))
        }
        // A mode made unreadable changes no modification time: the cache would still match.
        if faccessat(AT_FDCWD, path, R_OK, AT_EACCESS) != 0 { return .failure(unopened(path, isLink: isLink, errno)) }
        return .success(BundleFile(path: path, info, descriptor: -1))
    }

    init(path: String, device: UInt64, inode: UInt64, size: Int64, modified: Int64, descriptor: Int32) {
        self.path = path
        self.device = device
        self.inode = inode
        self.size = size
        self.modified = modified
        self.descriptor = descriptor
    }

    private init(path: String, _ info: stat, descriptor: Int32) {
        self.path = path
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
        size = Int64(info.st_size)
        modified = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
        self.descriptor = descriptor
    }

    /// Why a path that `lstat` found cannot be opened (or followed).
    static func unopened(_ path: String, isLink: Bool, _ error: Int32) -> LoadProblem {
        if error == ELOOP { return LoadProblem(path: path, reason: .danglingSymlink, message: "refused: a loop of symbolic links") }
        if error == ENOENT, isLink {
            let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) ?? "?"
            return LoadProblem(path: path, reason: .danglingSymlink, message: "dangling symbolic link to \(target)")
        }
        return LoadProblem(path: path, reason: .unreadable, message: "cannot read: \(errnoText(error))")
    }

    /// The checks of the file (`info`, followed through links) and of the directories above it:
    /// why it is refused, or nil. `resolved` gives the path a link resolves to.
    private static func refusal(
        _ path: String, _ info: stat, isLink: Bool, resolved: () -> String?, verdicts: DirectoryVerdicts
    ) -> (LoadProblem.Reason, String)? {
        guard info.st_mode & S_IFMT == S_IFREG else {
            return (.notRegularFile, "not a regular file (\(fileType(info.st_mode)))")
        }
        let user = getuid()
        if info.st_uid != user && info.st_uid != 0 {
            return (
                .insecurePermissions,
                "refused: owned by \(owner(info.st_uid)), not by \(trusted(user)); if you trust it, take it: 'chown \(name(user)) \(path)'")
        }
        if info.st_mode & (S_ISUID | S_ISGID) != 0 {
            return (.insecurePermissions, "refused: setuid or setgid (mode \(octal(info.st_mode))); run 'chmod ug-s \(path)'")
        }
        if info.st_mode & (S_IWGRP | S_IWOTH) != 0 {
            return (.insecurePermissions, "refused: writable by group or others (mode \(octal(info.st_mode))); run 'chmod go-w \(path)'")
        }
        // The directories above it, as written (a link's own directory) and as it resolves: a file
        // that is no link resolves to the resolved directory's entry.
        let written = absolute(path.pathDirectory)
        var chains = [written]
        if let resolved = isLink ? resolved()?.pathDirectory : verdicts.resolved(written) {
            if !chains.contains(resolved) { chains.append(resolved) }
        }
        for start in chains {
            if let message = verdicts.unsafeDirectory(from: start, user: user) { return (.insecurePermissions, message) }
        }
        return nil
    }

    /// Opens, checks and closes: the host's look at a file a worker will load (the worker opens and
    /// checks it again itself, and loads what it checked).
    static func inspect(_ path: String, verdicts: DirectoryVerdicts = DirectoryVerdicts()) -> Result<BundleFile, LoadProblem> {
        open(path, verdicts: verdicts).map { file in
            file.close()
            return file
        }
    }

    /// The first directory from `directory` up to `/` that someone other than the user or root could
    /// change, described with its fix; nil when every one is safe.
    static func unsafeDirectory(from directory: String, user: uid_t) -> String? {
        var current = directory.isEmpty ? "/" : directory
        while true {
            var info = stat()
            if stat(current, &info) == 0 {
                if info.st_uid != user && info.st_uid != 0 {
                    return "refused: the directory \(current) above it is owned by \(owner(info.st_uid)), not by \(trusted(user)): its owner may put any file there"
                }
                let sticky = info.st_mode & S_ISVTX != 0
                if info.st_mode & (S_IWGRP | S_IWOTH) != 0 && !sticky {
                    return "refused: the directory \(current) above it is writable by group or others (mode \(octal(info.st_mode))); run 'chmod go-w \(current)'"
                }
            }
            if current == "/" { return nil }
            let parent = current.pathDirectory
            current = parent.isEmpty ? "/" : parent
        }
    }

    /// The absolute path of the file a descriptor is open on.
    private static func openedPath(_ descriptor: Int32) -> String? { linkTarget("/proc/self/fd/\(descriptor)") }

    private static func absolute(_ directory: String) -> String {
        if directory.hasPrefix("/") { return directory }
        let here = FileManager.default.currentDirectoryPath
        return directory.isEmpty ? here : here + "/" + directory
    }

    /// A uid as a name, with the number: "nobody (uid 65534)".
    static func owner(_ uid: uid_t) -> String {
        let known = name(uid)
        return known == "\(uid)" ? "uid \(uid)" : "\(known) (uid \(uid))"
    }

    /// A uid's user name, or its number.
    static func name(_ uid: uid_t) -> String {
        guard let entry = getpwuid(uid), let name = entry.pointee.pw_name else { return "\(uid)" }
        return String(cString: name)
    }

    /// Who may own what the host loads: "you (ada) or root", or "root" for root.
    static func trusted(_ user: uid_t) -> String {
        user == 0 ? "root" : "you (\(name(user))) or root"
    }

    static func fileType(_ mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFDIR: "a directory"
        case S_IFIFO: "a FIFO"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFSOCK: "a socket"
        default: "not a plain file"
        }
    }

    /// Checks the ELF header and that every segment and section the header promises is in the file: a
    /// truncated copy is reported here instead of faulting the loader.
    private static func checkELF(descriptor: Int32, size: UInt64) -> (LoadProblem.Reason, String)? {
        // One read of the first page, which holds the header and (as linkers lay files out) the
        // program headers.
        var page = [UInt8](repeating: 0, count: 4096)
        let pageCount = max(0, pread(descriptor, &page, page.count, 0))
        let header = Array(page.prefix(64))
        let count = min(pageCount, 64)
        guard count >= 4, header[0] == 0x7F, header[1] == UInt8(ascii: "E"), header[2] == UInt8(ascii: "L"),
            header[3] == UInt8(ascii: "F")
        else { return (.notSharedObject, "not a shared object (no ELF header)") }
        guard count == 64 else { return (.truncated, "truncated: \(size) bytes, shorter than an ELF header") }
        guard header[4] == 2, header[5] == 1 else {
            return (.wrongArchitecture, "not a 64-bit little-endian ELF object; this host is \(hostArchitecture.name)")
        }
        func u16(_ offset: Int) -> UInt64 { UInt64(header[offset]) | UInt64(header[offset + 1]) << 8 }
        func u64(_ bytes: [UInt8], _ offset: Int) -> UInt64 {
            (0..<8).reduce(0) { $0 | UInt64(bytes[offset + $1]) << (8 * UInt64($1)) }
        }
        let type = u16(16)
        guard type == 3 else {
            let name = [1: "a relocatable object (.o)", 2: "an executable", 4: "a core dump"][Int(type)] ?? "ELF type \(type)"
            return (.notSharedObject, "not a shared object: it is \(name)")
        }
        let machine = u16(18)
        guard machine == hostArchitecture.machine else {
            return (.wrongArchitecture, "built for another architecture (ELF machine \(machine)); this host is \(hostArchitecture.name)")
        }
        // Offsets come from the file and may be anything: every sum is checked for overflow.
        func end(_ offset: UInt64, _ count: UInt64, _ size: UInt64) -> UInt64? {
            let (length, overflowLength) = count.multipliedReportingOverflow(by: size)
            let (end, overflowEnd) = offset.addingReportingOverflow(length)
            return overflowLength || overflowEnd ? nil : end
        }
        guard let sectionsEnd = end(u64(header, 40), u16(60), u16(58)) else {
            return (.notSharedObject, "malformed ELF header: its section table lies beyond any file")
        }
        if sectionsEnd > size {
            return (.truncated, "truncated: \(size) bytes, but its ELF header describes \(sectionsEnd)")
        }
        let programOffset = u64(header, 32)
        let programCount = Int(u16(56))
        let programSize = Int(u16(54))
        guard programSize >= 56 else {
            return (.notSharedObject, "malformed ELF header: program header entries of \(programSize) bytes")
        }
        guard let programEnd = end(programOffset, UInt64(programCount), UInt64(programSize)), programEnd <= size else {
            return (.truncated, "truncated: \(size) bytes, its program headers lie beyond the end")
        }
        var table: [UInt8]
        if programEnd <= UInt64(pageCount) {
            table = Array(page[Int(programOffset)..<Int(programEnd)])
        } else {
            table = [UInt8](repeating: 0, count: programCount * programSize)
            guard pread(descriptor, &table, table.count, off_t(programOffset)) == table.count else {
                return (.truncated, "truncated: cannot read its program headers")
            }
        }
        for index in 0..<programCount {
            let base = index * programSize
            let segmentType = UInt32(table[base]) | UInt32(table[base + 1]) << 8
            guard segmentType == 1 else { continue }  // PT_LOAD
            guard let segmentEnd = end(u64(table, base + 8), 1, u64(table, base + 32)) else {
                return (.notSharedObject, "malformed ELF header: a loadable segment lies beyond any file")
            }
            if segmentEnd > size { return (.truncated, "truncated: \(size) bytes, but a loadable segment ends at \(segmentEnd)") }
        }
        return nil
    }

    private static var hostArchitecture: (machine: UInt64, name: String) {
        #if arch(x86_64)
            (62, "x86_64")
        #elseif arch(arm64)
            (183, "aarch64")
        #else
            (0, "unknown")
        #endif
    }
}

/// What the files of one batch learned about their directories: each chain up to `/` is checked once
/// per batch, not once per file, and each directory resolved once.
final class DirectoryVerdicts: Sendable {
    private let verdicts = Mutex<[String: String?]>([:])
    private let resolvedDirectories = Mutex<[String: String?]>([:])

    init() {}

    /// `BundleFile.unsafeDirectory`, remembered.
    func unsafeDirectory(from directory: String, user: uid_t) -> String? {
        if let known = verdicts.withLock({ $0[directory] }) { return known }
        let verdict = BundleFile.unsafeDirectory(from: directory, user: user)
        verdicts.withLock { $0[directory] = verdict }
        return verdict
    }

    /// `resolvedPath` of a directory, remembered.
    func resolved(_ directory: String) -> String? {
        if let known = resolvedDirectories.withLock({ $0[directory] }) { return known }
        let resolved = resolvedPath(directory)
        resolvedDirectories.withLock { $0[directory] = resolved }
        return resolved
    }
}
