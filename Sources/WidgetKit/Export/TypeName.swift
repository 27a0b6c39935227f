/// A type's name as `String(describing:)` writes a metatype ("MyWidget", "Box<Int>"), taken
/// directly: `String(describing:)` first asks whether the metatype is `CustomStringConvertible` or
/// `TextOutputStreamable` and reflects it, and each question a process has not asked before scans
/// every loaded library's conformance records (a bundle's registration asked a few, which were
/// a tenth of a worker's start).
func nameOfType(_ type: Any.Type) -> String {
    Swift._typeName(type, qualified: false)
}
