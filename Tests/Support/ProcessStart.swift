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
