import Foundation
import WidgetSupport
import Glibc

/// The checks a bundle file passes before the host lets the dynamic loader near it: it is a regular
/// file (or a symlink to one), neither it nor its directory is writable by group or others (as sshd
/// refuses loose key files), it is readable, and it is a complete ELF shared object for this machine.
struct BundleFile {
    let path: String
    let device: UInt64
    let inode: UInt64

    static func inspect(_ path: String) -> Result<BundleFile, LoadProblem> {
        func problem(_ reason: LoadProblem.Reason, _ message: String) -> Result<BundleFile, LoadProblem> {
            .failure(LoadProblem(path: path, reason: reason, message: message))
        }
        var link = stat()
        guard lstat(path, &link) == 0 else { return problem(.unreadable, "cannot read: \(errnoText())") }
        var info = stat()
        if link.st_mode & S_IFMT == S_IFLNK {
            guard stat(path, &info) == 0 else {
                let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) ?? "?"
                return problem(.danglingSymlink, "dangling symbolic link to \(target)")
            }
        } else {
            info = link
        }
        guard info.st_mode & S_IFMT == S_IFREG else { return problem(.notRegularFile, "not a regular file") }
        if info.st_mode & (S_IWGRP | S_IWOTH) != 0 {
            return problem(
                .insecurePermissions,
                "refused: writable by group or others (mode \(octal(info.st_mode))); run 'chmod go-w \(path)'")
        }
        let directory = (path as NSString).deletingLastPathComponent
        var directoryInfo = stat()
        if stat(directory.isEmpty ? "." : directory, &directoryInfo) == 0,
            directoryInfo.st_mode & (S_IWGRP | S_IWOTH) != 0
        {
            return problem(
                .insecurePermissions,
                "refused: its directory \(directory) is writable by group or others (mode \(octal(directoryInfo.st_mode))); run 'chmod go-w \(directory)'"
            )
        }
        // Through a symlink, the file that loads is the target: its directory must be safe too.
        if link.st_mode & S_IFMT == S_IFLNK, let resolved = realpath(path, nil) {
            let target = String(cString: resolved)
            free(resolved)
            let targetDirectory = (target as NSString).deletingLastPathComponent
            var targetInfo = stat()
            if stat(targetDirectory, &targetInfo) == 0, targetInfo.st_mode & (S_IWGRP | S_IWOTH) != 0 {
                return problem(
                    .insecurePermissions,
                    "refused: it links to \(target), whose directory is writable by group or others (mode \(octal(targetInfo.st_mode))); run 'chmod go-w \(targetDirectory)'"
                )
            }
        }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return problem(.unreadable, "cannot read: \(errnoText())") }
        defer { close(descriptor) }
        if let failure = checkELF(descriptor: descriptor, size: UInt64(info.st_size)) {
            return problem(failure.0, failure.1)
        }
        return .success(BundleFile(path: path, device: UInt64(info.st_dev), inode: UInt64(info.st_ino)))
    }

    /// Checks the ELF header and that every segment and section the header promises is in the file: a
    /// truncated copy is reported here instead of faulting the loader.
    private static func checkELF(descriptor: Int32, size: UInt64) -> (LoadProblem.Reason, String)? {
        var header = [UInt8](repeating: 0, count: 64)
        let count = pread(descriptor, &header, 64, 0)
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
        var table = [UInt8](repeating: 0, count: programCount * programSize)
        guard pread(descriptor, &table, table.count, off_t(programOffset)) == table.count else {
            return (.truncated, "truncated: cannot read its program headers")
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
