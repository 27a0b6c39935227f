import Foundation

extension Process {
    /// Starts the process with no input and its errors dropped, and reads its output until `ready`
    /// holds of what it said (a display number, an address, "ready"); returns what it said. `name`
    /// names it in the error when it ends first.
    func runAndRead(name: String, until ready: (String) -> Bool) throws -> String {
        let output = Pipe()
        standardOutput = output
        standardError = FileHandle.nullDevice
        standardInput = FileHandle.nullDevice
        try run()
        var said = ""
        while !ready(said) {
            let data = output.fileHandleForReading.availableData
            guard !data.isEmpty else { throw SwayError("\(name) ended before it was ready (it said: \(said.isEmpty ? "nothing" : said))") }
            said += String(decoding: data, as: UTF8.self)
        }
        return said
    }
}

extension Process {
    /// Waits for the process to end, as `waitUntilExit` does, but without holding a core meanwhile.
    /// Foundation's `waitUntilExit` runs the calling thread's run loop in 50 ms slices, and on any
    /// thread but the one that started the process that run loop has nothing to wait on: each slice
    /// returns at once, and the wait spins until the process ends (a two-second `sleep` waited for
    /// from another thread cost two seconds of CPU). Tests start a process on one thread and stop
    /// it on another (a `defer` after an `await`, `blocking`), so in the test run's profile these
    /// waits were several percent of its CPU. Asked every 5 ms instead.
    public func waitForExit() {
        while isRunning { usleep(5_000) }
    }
}
