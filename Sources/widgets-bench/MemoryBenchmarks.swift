import Foundation
import Glibc
import WidgetHost
import WidgetWire

/// The host's resident peak, in bytes (`VmHWM`).
func residentPeak() -> Int {
    let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
    let line = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") } ?? ""
    return (Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0) * 1024
}

/// Resets the resident peak to what is resident now (Linux 4.0: "5" to clear_refs).
func resetResidentPeak() {
    let descriptor = open("/proc/self/clear_refs", O_WRONLY)
    guard descriptor >= 0 else { return }
    _ = write(descriptor, "5", 1)
    close(descriptor)
}

struct LargestTimelineResult {
    let limit: Int
    let answerBytes: Int
    let entries: Int
    /// Growth of the host's resident peak over what was resident before the request: the request
    /// alone (decoded and checked), and the request with its answer written out as JSON, entry by
    /// entry in parts, as `widgets timeline --json` writes it.
    let requestPeak: Int
    let withJSONPeak: Int
}

/// A provider in a worker process answers with the largest timeline the host takes (entries of a
/// stack of two texts, up to the result limit), and the host's resident peak is read around the
/// request. The worst of `rounds`.
func benchmarkLargestTimeline(rounds: Int) async -> LargestTimelineResult {
    let limit = ResultLimit.bytes
    setenv("FIXTURE_RESULT_BYTES", "\(limit)", 1)
    let library = compileFixture(flags: ["-DLARGE_TIMELINE", "-DKIND=\"fixture.large\""], label: "large")
    defer { try? FileManager.default.removeItem(at: library) }
    let directory = bundleDirectory(copies: 1, of: library, label: "large")
    defer { try? FileManager.default.removeItem(at: directory) }
    let registry = WidgetRegistry.load(searchPath: [directory.path], isolation: processIsolation())
    defer { registry.shutDownWorkers() }
    precondition(registry.widgets.count == 1, "\(registry.problems)")
    var (requestPeak, withJSONPeak, entries, bytes) = (0, 0, 0, 0)
    for _ in 0..<rounds {
        resetResidentPeak()
        let before = residentPeak()
        let result = try! await registry.request(.timeline, kind: "fixture.large")
        requestPeak = max(requestPeak, residentPeak() - before)
        entries = result.entries.count
        // Written out as `widgets timeline --json` writes it: entry by entry, in parts of 64 KiB.
        var part = "{\"entries\":["
        bytes = 0
        for (index, entry) in result.entries.enumerated() {
            if index > 0 { part += "," }
            part += entry.json.jsonText
            if part.utf8.count >= 64 << 10 {
                bytes += part.utf8.count
                part = ""
            }
        }
        bytes += part.utf8.count
        withJSONPeak = max(withJSONPeak, residentPeak() - before)
    }
    return LargestTimelineResult(limit: limit, answerBytes: bytes, entries: entries, requestPeak: requestPeak, withJSONPeak: withJSONPeak)
}
