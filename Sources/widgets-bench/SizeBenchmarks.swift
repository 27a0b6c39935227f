import Foundation
import Glibc

// MARK: - `widgets` on disk: built, and as `make install` installs it

/// Sizes of an executable and of what is in it, in bytes.
struct ProgramSize {
    let file: Int
    /// The DWARF sections (`.debug_*`).
    let debug: Int
    /// The symbol table and its names (`.symtab`, `.strtab`).
    let symbols: Int

    init(_ path: String) {
        let data = (try? Data(contentsOf: URL(fileURLWithPath: path))) ?? Data()
        file = data.count
        var debug = 0
        var symbols = 0
        for (name, size) in elfSections(data) {
            if name.hasPrefix(".debug_") { debug += size }
            if name == ".symtab" || name == ".strtab" { symbols += size }
        }
        (self.debug, self.symbols) = (debug, symbols)
    }
}

/// The section headers of a 64-bit little-endian ELF file: each section's name and size.
func elfSections(_ data: Data) -> [(String, Int)] {
    let bytes = [UInt8](data)
    guard bytes.count > 64, bytes.starts(with: [0x7F, 0x45, 0x4C, 0x46, 2, 1]) else { return [] }
    func integer(_ offset: Int, _ size: Int) -> Int {
        guard offset >= 0, offset + size <= bytes.count else { return 0 }
        return (0..<size).reduce(0) { $0 | Int(bytes[offset + $1]) << (8 * $1) }
    }
    let (headers, entrySize, count, namesIndex) = (integer(0x28, 8), integer(0x3A, 2), integer(0x3C, 2), integer(0x3E, 2))
    let namesOffset = integer(headers + namesIndex * entrySize + 0x18, 8)
    return (0..<count).map { index in
        let header = headers + index * entrySize
        var name = namesOffset + integer(header, 4)
        var text: [UInt8] = []
        while name < bytes.count, bytes[name] != 0 {
            text.append(bytes[name])
            name += 1
        }
        return (String(decoding: text, as: UTF8.self), integer(header + 0x20, 8))
    }
}

struct SizeResult {
    /// The release `widgets`, as built.
    let built: ProgramSize
    /// As `make install` installs it (`objcopy --strip-all`); nil without objcopy.
    let installed: ProgramSize?
    /// Its debug information's file beside it (`objcopy --only-keep-debug`).
    let debugFile: Int?
    /// A one-line program on FoundationEssentials built and linked as `widgets` is, as built and stripped.
    let floorBuilt: ProgramSize
    let floorInstalled: ProgramSize?
    /// The release `widgets-worker`, for comparison (it links the shared runtime and Foundation).
    let worker: Int
}

/// `widgets` as built, and as installed; against a program of one line built the same way.
func benchmarkSize() -> SizeResult {
    let directory = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("widgets-bench-size-\(getpid())")
    try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    func run(_ arguments: [String]) -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }
    /// As `make install` strips it: nil without objcopy.
    func installed(_ path: String) -> (ProgramSize, Int)? {
        let installation = directory.appendingPathComponent("installed")
        try? FileManager.default.createDirectory(at: installation, withIntermediateDirectories: true)
        let copy = installation.appendingPathComponent(URL(fileURLWithPath: path).lastPathComponent).path
        let debug = copy + ".debug"
        guard run(["cp", path, copy]), run(["objcopy", "--only-keep-debug", copy, debug]),
            run(["objcopy", "--strip-all", "--add-gnu-debuglink=\(debug)", copy])
        else { return nil }
        return (ProgramSize(copy), ProgramSize(debug).file)
    }
    let widgets = BenchHome.products.appendingPathComponent("widgets").path
    let source = directory.appendingPathComponent("floor.swift")
    try! "import FoundationEssentials\nprint(Date.now)\n".write(to: source, atomically: true, encoding: .utf8)
    let floor = directory.appendingPathComponent("floor").path
    let linked = run(
        ["swiftc", "-O", "-g", "-static-stdlib", "-use-ld=lld", source.path, "-o", floor, "-Xlinker", "--gc-sections"]
            + ["--start-group", "-lFoundationEssentials", "-l_FoundationCShims", "-l_FoundationCollections", "--end-group"].flatMap { ["-Xlinker", $0] })
    precondition(linked, "cannot build the floor program (\(source.path))")
    let installedWidgets = installed(widgets)
    return SizeResult(
        built: ProgramSize(widgets), installed: installedWidgets?.0, debugFile: installedWidgets?.1, floorBuilt: ProgramSize(floor),
        floorInstalled: installed(floor)?.0, worker: ProgramSize(BenchHome.products.appendingPathComponent("widgets-worker").path).file)
}

func sizeRows(_ size: SizeResult) -> [Row] {
    func megabytes(_ bytes: Int) -> String { "\(formatted(Double(bytes) / 1e6)) MB" }
    func parts(_ program: ProgramSize) -> String {
        "\(megabytes(program.file)) (debug information \(megabytes(program.debug)), symbols \(megabytes(program.symbols)))"
    }
    let installed = size.installed.map { "\(megabytes($0.file)) as `make install` installs it (its debug information, \(megabytes(size.debugFile ?? 0)), in bin/.debug/)" }
        ?? "not measured: no objcopy (Debian's binutils)"
    return [
        Row(
            name: "`widgets` on disk, built on FoundationEssentials without ICU (release; built, and installed)",
            measured: "\(parts(size.built)) built; \(installed)",
            floor: "a one-line program on FoundationEssentials built and linked the same way: \(parts(size.floorBuilt)) built\(size.floorInstalled.map { "; \(megabytes($0.file)) installed" } ?? ""); `widgets-worker` (shared runtime and Foundation): \(megabytes(size.worker))",
            result: size.installed.map { "\(megabytes($0.file)) installed (\(megabytes(size.built.file)) built; 87.7 MB with Foundation and ICU)" } ?? "\(megabytes(size.built.file)) built",
            goal: "≤ 25 MB on disk (issue 33)", met: (size.installed?.file ?? size.built.file) <= 25_000_000),
    ]
}
