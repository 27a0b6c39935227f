import Foundation
import Glibc
import Testing
import WidgetABI
import WidgetSupport
import WidgetTestSupport

@testable import WidgetHost

/// A real bundle with bytes of its ELF header and program headers changed, each variant loaded in
/// process isolation, as a careless copy or an attacker would leave it: the host never crashes or
/// hangs, and each variant is loaded or refused with one line naming it. 300 variants in the suite;
/// WIDGETS_FUZZ=3000 runs more.
@Suite struct ELFFuzzTests {
    /// The byte ranges a loader reads first: the ELF header and the program header table.
    static func headerRanges(_ bytes: [UInt8]) -> [Range<Int>] {
        func integer<T: FixedWidthInteger>(_ offset: Int, as: T.Type) -> Int {
            Int(bytes[offset..<offset + MemoryLayout<T>.size].reversed().reduce(T(0)) { $0 << 8 | T($1) })
        }
        let programHeaders = integer(0x20, as: UInt64.self)
        let size = integer(0x36, as: UInt16.self) * integer(0x38, as: UInt16.self)
        return [0..<64, programHeaders..<min(bytes.count, programHeaders + size)]
    }

    @Test func changedHeadersAreRefusedOrLoadedNeverFatal() async throws {
        let original = Array(try Data(contentsOf: URL(fileURLWithPath: Fixtures.path("good"))))
        let ranges = Self.headerRanges(original)
        let positions = ranges.flatMap { Array($0) }
        let interesting: [UInt8] = [0, 1, 2, 0x7F, 0x80, 0xFF]
        var random = SeededGenerator(state: 2020)
        let runs = Fuzzing.runs(suite: 300)
        let isolation = Isolation.process(ProcessIsolation(workerExecutable: Fixtures.workerExecutable))
        var (loaded, refused) = (0, 0)
        for batch in stride(from: 0, to: runs, by: 30) {
            let directory = Fixtures.temporaryDirectory("elf-fuzz")
            var paths: [String] = []
            for run in batch..<min(runs, batch + 30) {
                var bytes = original
                for _ in 0..<Int.random(in: 1...4, using: &random) {
                    let position = positions.randomElement(using: &random)!
                    bytes[position] = Bool.random(using: &random) ? interesting.randomElement(using: &random)! : UInt8.random(in: 0...255, using: &random)
                }
                let path = directory.appendingPathComponent("variant-\(run).so").path
                try Data(bytes).write(to: URL(fileURLWithPath: path))
                chmod(path, 0o755)
                paths.append(path)
            }
            let registry = await blocking { WidgetRegistry.load(searchPath: [directory.path], isolation: isolation) }
            defer { registry.shutDownWorkers() }
            let problems = registry.problems
            for path in paths {
                let mine = problems.filter { $0.path == path }
                if registry.bundle(path: path) != nil {
                    loaded += 1
                } else {
                    refused += 1
                    #expect(!mine.isEmpty, "\(path): neither loaded nor refused")
                }
                for problem in mine {
                    #expect(problem.reason != .timedOut, "\(path) hung the load: \(problem)")
                    #expect(!problem.description.hasControlCharacters, "\(problem.description.debugDescription)")
                }
            }
        }
        #expect(loaded + refused == runs)
        // Most changes break the file; some (padding, alignment) leave it loadable.
        #expect(refused > 0)
    }
}
