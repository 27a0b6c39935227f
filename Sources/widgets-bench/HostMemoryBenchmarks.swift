import Foundation
import Glibc

// MARK: - A host's memory as a desktop sees it: the process and each worker, after they settle

/// A process's memory from `/proc/PID/smaps_rollup`, in bytes.
struct ProcessMemory {
    let rss: Int
    let pss: Int
    let privateDirty: Int

    init?(pid: pid_t) {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/smaps_rollup", encoding: .utf8) else { return nil }
        func field(_ name: String) -> Int {
            guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix(name + ":") }) else { return 0 }
            return (Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "0") ?? 0) * 1024
        }
        rss = field("Rss")
        pss = field("Pss")
        privateDirty = field("Private_Dirty")
    }
}

struct HostMemoryResult {
    let host: ProcessMemory
    let workers: [ProcessMemory]
    /// The worker zygote, which forked them (nil if none ran).
    let zygote: ProcessMemory?
    /// The same host with each worker spawned (`WIDGETS_ZYGOTE=off`), measured right after.
    let spawnedHost: ProcessMemory
    let spawnedWorkers: [ProcessMemory]
    /// The same host once its idle workers were stopped (`WIDGETS_WORKER_IDLE=1`): the host, the
    /// zygote, and the workers left (none, settled).
    let idleHost: ProcessMemory
    let idleZygote: ProcessMemory?
    let idleWorkers: [ProcessMemory]
    /// The same host with idle workers keeping their files' pages (`WIDGETS_WORKER_RELEASE=never`),
    /// as before issue 33's release: the host, the zygote, the workers.
    let keptHost: ProcessMemory
    let keptZygote: ProcessMemory?
    let keptWorkers: [ProcessMemory]
    let instances: Int

    /// PSS of the host and everything it runs.
    var total: Int { host.pss + (zygote?.pss ?? 0) + workers.map(\.pss).reduce(0, +) }
    var spawnedTotal: Int { spawnedHost.pss + spawnedWorkers.map(\.pss).reduce(0, +) }
    var idleTotal: Int { idleHost.pss + (idleZygote?.pss ?? 0) + idleWorkers.map(\.pss).reduce(0, +) }
    var keptTotal: Int { keptHost.pss + (keptZygote?.pss ?? 0) + keptWorkers.map(\.pss).reduce(0, +) }
}

/// `widgets run` hosting one instance of each sample widget (the samples in the release build,
/// each bundle in its worker), measured once every instance shows its first timeline and the
/// processes have been idle a few seconds: the host, and each worker.
func benchmarkHostMemory() -> HostMemoryResult {
    var sources = ["libSystemWidgets.so", "libGameWidgets.so", "libCryptoWidgets.so"].map { BenchHome.products.appendingPathComponent($0) }
    let hostInfo = repositoryRoot.appendingPathComponent("widgets.d/libHostInfo.so")
    if FileManager.default.fileExists(atPath: hostInfo.path) { sources.append(hostInfo) }
    let home = BenchHome("memory", bundles: sources)
    defer { home.remove() }
    let (widgets, plugins, environment) = (home.widgets, home.plugins, home.environment)
    var kinds = ["org.widgets.system.clock", "com.mygame.game-status", "org.widgets.crypto.price"]
    if sources.contains(hostInfo) { kinds.append("org.widgets.host-info") }
    for kind in kinds { _ = timedWidgets(widgets, ["--plugins", plugins.path, "add", kind], environment: environment) }

    func measure(_ environment: [String: String]) -> (ProcessMemory, [ProcessMemory], ProcessMemory?) {
        let host = BenchHost(widgets, ["--plugins", plugins.path, "run", "--log"], environment: environment)
        defer { host.stop() }
        host.waitForLine { $0.contains("hosting \(kinds.count) instance(s)") }
        // Every instance's first timeline, then a few seconds of nothing due.
        for kind in kinds { host.waitForLine { line in line.contains(kind.split(separator: ".").last!) && !line.contains("loading") } }
        sleep(3)
        let pid = host.process.processIdentifier
        // Workers are the zygote's children (or the host's, spawned); the zygote is the host's.
        let children = childProcesses(of: pid)
        let zygote = children.first { commandLine(of: $0).contains("--zygote") }
        let workers = (children.filter { $0 != zygote } + (zygote.map(childProcesses(of:)) ?? [])).compactMap(ProcessMemory.init(pid:))
        return (ProcessMemory(pid: pid)!, workers, zygote.flatMap(ProcessMemory.init(pid:)))
    }
    // Files just written (a build) count as dirty pages until written back: written back first.
    sync()
    let (host, workers, zygote) = measure(environment)
    var spawning = environment
    spawning["WIDGETS_ZYGOTE"] = "off"
    let (spawnedHost, spawnedWorkers, _) = measure(spawning)
    var idling = environment
    idling["WIDGETS_WORKER_IDLE"] = "1"
    let (idleHost, idleWorkers, idleZygote) = measure(idling)
    var keeping = environment
    keeping["WIDGETS_WORKER_RELEASE"] = "never"
    let (keptHost, keptWorkers, keptZygote) = measure(keeping)
    return HostMemoryResult(
        host: host, workers: workers.sorted { $0.pss < $1.pss }, zygote: zygote, spawnedHost: spawnedHost,
        spawnedWorkers: spawnedWorkers.sorted { $0.pss < $1.pss }, idleHost: idleHost, idleZygote: idleZygote, idleWorkers: idleWorkers,
        keptHost: keptHost, keptZygote: keptZygote, keptWorkers: keptWorkers.sorted { $0.pss < $1.pss }, instances: kinds.count)
}

/// A process's command line, its arguments joined by spaces.
func commandLine(of pid: pid_t) -> String {
    let data = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") ?? Data()
    return String(decoding: data.map { $0 == 0 ? 32 : $0 }, as: UTF8.self)
}

/// The processes whose parent is `pid`.
func childProcesses(of pid: pid_t) -> [pid_t] {
    let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
    return entries.compactMap { Int32($0) }.filter { child in
        guard let stat = try? String(contentsOfFile: "/proc/\(child)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return false }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        return fields.count > 2 && Int32(fields[1]) == pid
    }
}

/// "RSS 9.1 MiB, PSS 6.2 MiB, private dirty 3.0 MiB".
func describe(_ memory: ProcessMemory) -> String {
    "RSS \(mebibytes(memory.rss)), PSS \(mebibytes(memory.pss)), private dirty \(mebibytes(memory.privateDirty))"
}

func hostMemoryLines(_ result: HostMemoryResult) -> [String] {
    ["host: \(describe(result.host))"] + result.workers.enumerated().map { "worker \($0.offset + 1): \(describe($0.element))" }
        + (result.zygote.map { ["zygote: \(describe($0))"] } ?? [])
        + ["spawned: host: \(describe(result.spawnedHost))"] + result.spawnedWorkers.map { "spawned worker: \(describe($0))" }
        + ["idle workers stopped: host \(describe(result.idleHost)); zygote \(result.idleZygote.map(describe) ?? "none"); \(result.idleWorkers.count) workers left"]
        + ["pages kept: host: \(describe(result.keptHost)); zygote \(result.keptZygote.map(describe) ?? "none")"]
        + result.keptWorkers.map { "pages kept, worker: \(describe($0))" }
        + [
            "total PSS: forked \(mebibytes(result.total)), pages kept \(mebibytes(result.keptTotal)), spawned \(mebibytes(result.spawnedTotal)), idle workers stopped \(mebibytes(result.idleTotal))"
        ]
}
