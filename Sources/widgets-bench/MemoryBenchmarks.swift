import Foundation
import Glibc
import WidgetHost
import WidgetRendering
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

struct LargestEntryResult {
    let views: Int
    let textBytes: Int
    let answerBytes: Int
    /// Peak resident growth of the host: the request (from a worker), then its drawings in light and
    /// dark as the home screen makes a card of them.
    let requestPeak: Int
    let drawnPeak: Int
    let drawingBytes: Int
}

/// The host's memory around the largest entry `WireLimits` allows, asked of a worker and drawn as a
/// card is: what a bundle within every limit can make the host hold.
func benchmarkLargestEntry(rounds: Int) async -> LargestEntryResult {
    let library = compileFixture(flags: ["-DCOSTLY_ENTRY", "-DKIND=\"fixture.costly\""], label: "costly")
    defer { try? FileManager.default.removeItem(at: library) }
    let directory = bundleDirectory(copies: 1, of: library, label: "costly")
    defer { try? FileManager.default.removeItem(at: directory) }
    let registry = WidgetRegistry.load(searchPath: [directory.path], isolation: processIsolation())
    defer { registry.shutDownWorkers() }
    precondition(registry.widget(kind: "fixture.largest") != nil, "\(registry.problems)")
    let renderers = [SVGRenderer(appearance: .light), SVGRenderer(appearance: .dark)]
    var (requestPeak, drawnPeak, drawingBytes, views, text, answerBytes) = (0, 0, 0, 0, 0, 0)
    for _ in 0..<rounds {
        resetResidentPeak()
        let before = residentPeak()
        let result = try! await registry.request(.timeline, kind: "fixture.largest", family: .systemLarge)
        requestPeak = max(requestPeak, residentPeak() - before)
        let view = result.entries[0].view
        views = 1 + view.children.count
        answerBytes = WireTimeline(entries: result.entries, policy: result.policy).encoded().count
        text = view.children.reduce(0) { $0 + ($1.attributes["text"]?.stringValue?.utf8.count ?? 0) }
        drawingBytes = 0
        for renderer in renderers {
            drawingBytes += renderer.render(view, family: .systemLarge, now: Date(), idPrefix: "i1-", contentMarginsDisabled: false, interactive: true).utf8.count
        }
        drawnPeak = max(drawnPeak, residentPeak() - before)
    }
    return LargestEntryResult(
        views: views, textBytes: text, answerBytes: answerBytes, requestPeak: requestPeak, drawnPeak: drawnPeak, drawingBytes: drawingBytes)
}
