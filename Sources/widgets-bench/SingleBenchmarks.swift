import Foundation
import Glibc
@_spi(Benchmarks) import WidgetHost
import WidgetSupport

/// One benchmark run alone (`BENCH_ONLY=NAME`), its figures printed, for profiling and for a quick
/// look; false for a name that is none of them.
func runSingleBenchmark(_ name: String) async -> Bool {
    // BENCH_ONLY=frames runs the dashboard frame benchmark alone and prints it (for profiling);
    // BENCH_FULL_FRAMES=N sets how many full frames it draws (default: a quarter of the ticks).
    if name == "frames" {
        let result = benchmarkFrames(widgets: 100, frames: 50)
        print("tick \(percentile(result.frame, 0.5)) ms; full \(percentile(result.full, 0.5)) ms; plain text \(percentile(result.plainText, 0.5)) ms; cells \(result.cellsPerTick)")
        return true
    }

    // BENCH_ONLY=engine runs the timeline engine's virtual day alone and prints its figures (for profiling).
    if name == "engine" {
        let result = benchmarkEngine(instances: 100_000)
        print("\(formatted(result.nanosecondsPerEvent / 1e3)) µs per event, \(result.events) events; adding \(formatted(result.addNanosecondsPerInstance / 1e3)) µs")
        return true
    }

    // BENCH_ONLY=isolation runs the one-provider round trips alone (direct, queue, process) and prints
    // their medians (for profiling).
    if name == "isolation" {
        let result = await benchmarkIsolation(iterations: 20_000, providers: 16, requestsEach: 100)
        let (direct, queue, process) = (median(result.direct) / 1e3, median(result.queue) / 1e3, median(result.process) / 1e3)
        print("direct \(formatted(direct)) µs; queue \(formatted(queue)) µs (+\(formatted(queue - direct))); process \(formatted(process)) µs (+\(formatted(process - direct)); ping-pong with a process \(formatted(median(result.crossProcess) / 1e3)) µs); 16 workers \(Int(result.processThroughput)) requests/s")
        return true
    }


    // BENCH_ONLY=request times a trivial provider's timeline through the ABI against the direct call, alone.
    if name == "request" {
        let result = benchmarkRequest(iterations: 100_000)
        let floor = percentile(result.directWithContent, 0.5)
        print("through the ABI \(formatted(percentile(result.throughABI, 0.5) / 1e3)) µs; direct with content \(formatted(floor / 1e3)) µs; +\(formatted((percentile(result.throughABI, 0.5) - floor) / 1e3)) µs")
        return true
    }

    // BENCH_ONLY=guard times the memory guard's malloc + free against glibc's, on one thread and two, alone.
    if name == "guard" {
        let result = benchmarkGuard(iterations: 200_000)
        print("libc \(formatted(result.libc, 1)) ns; charged \(formatted(result.tagged, 1)) ns (+\(formatted(result.tagged - result.libc, 1))); uncharged \(formatted(result.untagged, 1)) ns; two threads: libc \(formatted(result.parallelLibc, 1)) ns, charged \(formatted(result.parallel, 1)) ns (+\(formatted(result.parallel - result.parallelLibc, 1)))")
        return true
    }

    // BENCH_ONLY=size measures `widgets` on disk, built and installed, alone.
    if name == "size" {
        for row in sizeRows(benchmarkSize()) { print("\(row.name): \(row.measured); floor \(row.floor); \(row.result)") }
        return true
    }

    // BENCH_ONLY=largest measures the host's memory around the largest timeline allowed, alone.
    if name == "largest" {
        let result = await benchmarkLargestTimeline(rounds: 3)
        print("limit \(result.limit >> 20) MiB, \(result.entries) entries: request +\(result.requestPeak >> 20) MiB, with JSON +\(result.withJSONPeak >> 20) MiB")
        return true
    }

    // BENCH_ONLY=gallery measures the gallery page in SVG and one string, in the font and by averages, alone.
    if name == "gallery" {
        let result = benchmarkFrames(widgets: 100, frames: 200)
        print("full frame \(formatted(percentile(result.full, 0.5))) ms; gallery page: font \(formatted(percentile(result.svgPageFont, 0.5))) ms, averages \(formatted(percentile(result.svgPageAverage, 0.5))) ms; one string: font \(formatted(percentile(result.stringFont, 0.5) / 1000, 2)) µs, table \(formatted(percentile(result.stringAverage, 0.5) / 1000, 2)) µs")
        return true
    }

    // BENCH_ONLY=entry measures the host's memory around the largest entry allowed, alone.
    if name == "entry" {
        let result = await benchmarkLargestEntry(rounds: 3)
        print("\(result.views) views, \(result.textBytes) bytes of text, answer \(result.answerBytes) bytes: request +\(result.requestPeak >> 10) KiB, drawn +\(result.drawnPeak >> 10) KiB (drawings \(result.drawingBytes >> 10) KiB)")
        return true
    }

    // BENCH_ONLY=slowloris measures the page's latency under a slowloris, alone.
    if name == "slowloris" {
        let result = await benchmarkSlowloris(attackers: ProcessInfo.processInfo.environment["BENCH_ATTACKERS"].flatMap { Int($0) } ?? 500)
        print("idle \(formatted(median(result.idle) / 1e6, 3)) ms; under \(result.attackers) slowloris connections \(formatted(median(result.underAttack) / 1e6, 3)) ms (p90 \(formatted(percentile(result.underAttack.sorted(), 0.9) / 1e6, 3)) ms), \(result.served) of \(result.underAttack.count) served, \(result.reopened) attacker connections reopened")
        return true
    }

    // BENCH_ONLY=loading loads 100 bundles against the dlopen floor, alone.
    if name == "loading" {
        let result = benchmarkLoading(rounds: 10)
        print("loader \(formatted(result.loader / 1e6)) ms; floor \(formatted(result.floor / 1e6)) ms; \(formatted(result.ratio))× (medians of the rounds: \(formatted(result.loader / result.floor))×)")
        return true
    }

    // BENCH_ONLY=web runs the home screen's figures alone.
    if name == "web" {
        let result = await benchmarkWeb()
        let (latency, provider) = (median(result.latency) / 1e6, median(result.provider) / 1e6)
        print("reload to page \(formatted(latency, 3)) ms (provider \(formatted(provider, 3)) ms, +\(formatted(latency - provider, 3)) ms); host heap \(result.hostHeap >> 10) KiB, server + 1 page \(result.firstPageHeap >> 10) KiB, + \(result.pages) pages \(result.serverHeap >> 10) KiB; idle switches \(result.idleSwitches) (floor \(result.idleFloor))")
        return true
    }

    // BENCH_ONLY=listing lists 100 Swift bundles with the registry cache warm, cold and bypassed.
    if name == "listing" {
        let result = benchmarkListing()
        print(
            "warm \(formatted(median(result.warm) / 1e6)) ms (process start \(formatted(median(result.start) / 1e6)) ms; \(result.widgets) widgets, \(result.problems) problems); floor process \(formatted(median(result.floorProcess) / 1e6)) ms (-static-stdlib: \(formatted(median(result.staticFloorProcess) / 1e6)) ms), in process \(formatted(median(result.floor) / 1e6)) ms; cold \(formatted(median(result.cold) / 1e6)) ms (spawned: \(formatted(median(result.coldSpawned) / 1e6)) ms); --no-cache \(formatted(median(result.bypassed) / 1e6)) ms"
        )
        return true
    }

    // BENCH_ONLY=build runs widgets build's figures alone.
    if name == "build" {
        let result = benchmarkBuild()
        print(
            "first \(formatted(median(result.first))) s; floor \(formatted(median(result.floor))) s (compile alone \(formatted(median(result.compileFloor))) s); rebuild \(formatted(median(result.rebuild))) s; watch: save to compiled \(formatted(median(result.watchRebuild))) s, to page \(formatted(median(result.saveToPage))) s"
        )
        return true
    }

    // BENCH_ONLY=memory: the host and its workers hosting the samples, settled.
    // BENCH_ONLY=release times a request after its worker gave back its pages, alone.
    if name == "release" {
        let result = benchmarkIdleRelease()
        print("after the release \(formatted(median(result.released) / 1e6)) ms; pages kept \(formatted(median(result.kept) / 1e6)) ms")
        return true
    }

    if name == "memory" {
        let result = benchmarkHostMemory()
        print(hostMemoryLines(result).joined(separator: "\n"))
        return true
    }

    // BENCH_ONLY=workerstart: a worker forked by the zygote against one spawned.
    if name == "workerstart" {
        let result = benchmarkWorkerStart()
        print("forked \(formatted(median(result.forked) / 1e6)) ms; spawned \(formatted(median(result.spawned) / 1e6)) ms")
        return true
    }

    // BENCH_ONLY=desktop: the desktop surface in a headless sway.
    if name == "desktop" {
        switch benchmarkDesktop() {
        case .success(let result):
            print(
                "reload to pixels \(formatted(median(result.toPixels) / 1e6, 1)) ms (to the host \(formatted(median(result.toHost) / 1e6, 1)) ms); \(describe(result.memory)) with \(result.widgets) widgets; \(result.idleWakeups) wakeups in \(result.idleSeconds) s idle (drawing thread \(result.drawingWakeups))"
            )
        case .failure(let why):
            print("not measured: \(why)")
        }
        return true
    }

    // BENCH_ONLY=surfaces: a page across a host restart, and the dashboard's first frame.
    if name == "surfaces" {
        let result = benchmarkSurfaces()
        print(
            "page back \(formatted(median(result.reconnect) / 1e6, 1)) ms after the spawn (host start \(formatted(median(result.hostStart) / 1e6, 1)) ms); first frame \(formatted(median(result.firstFrame) / 1e6, 1)) ms (process \(formatted(median(result.processStart) / 1e6, 1)) ms)"
        )
        return true
    }
    return false
}
