import Foundation
import Testing

@testable import WidgetKit

/// Shared defaults: property-list values, several writers at once, changes seen by other instances.
@Suite final class SharedDefaultsTests {
    let container: URL = {
        let url = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("shared-defaults-\(UUID().uuidString)")
        try! FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }()

    // Each test has its own instance, and its own container, removed when the test is done.
    deinit { try? FileManager.default.removeItem(at: container) }

    func defaults() -> SharedDefaults { SharedDefaults(suiteName: "group.org.example.test", container: container)! }

    @Test func propertyListValuesReadBackAsThemselves() {
        let defaults = defaults()
        let date = Date(timeIntervalSince1970: 1_800_000_123.5)
        defaults.set("Unipony", forKey: "character")
        defaults.set(42, forKey: "level")
        defaults.set(0.25, forKey: "ratio")
        defaults.set(true, forKey: "sound")
        defaults.set(date, forKey: "updated")
        defaults.set(Data([0, 1, 255]), forKey: "blob")
        defaults.set(URL(string: "mygame://character/unipony"), forKey: "link")
        defaults.set(["a", "b"], forKey: "names")
        defaults.set(["hp": 12, "name": "Spouty"] as [String: Any], forKey: "party")

        let other = self.defaults()  // another instance, as another process would have
        #expect(other.string(forKey: "character") == "Unipony")
        #expect(other.integer(forKey: "level") == 42)
        #expect(other.double(forKey: "ratio") == 0.25)
        #expect(other.bool(forKey: "sound"))
        #expect(other.object(forKey: "updated") as? Date == date)
        #expect(other.data(forKey: "blob") == Data([0, 1, 255]))
        #expect(other.url(forKey: "link") == URL(string: "mygame://character/unipony"))
        #expect(other.stringArray(forKey: "names") == ["a", "b"])
        #expect(other.dictionary(forKey: "party")?["hp"] as? Int == 12)
        #expect(other.integer(forKey: "missing") == 0)
        #expect(other.string(forKey: "missing") == nil)

        other.removeObject(forKey: "character")
        other.set(nil, forKey: "level")
        #expect(defaults.string(forKey: "character") == nil, "the first instance sees the other's change")
        #expect(defaults.object(forKey: "level") == nil)
        #expect(Set(defaults.dictionaryRepresentation().keys) == ["ratio", "sound", "updated", "blob", "link", "names", "party"])
    }

    @Test func writersAtOnceLoseNothing() async {
        let container = self.container
        // Eight writers, each with its own instance (its own cache and lock descriptor, as separate
        // processes have), each setting its own keys: every key survives the read-modify-writes.
        await withTaskGroup(of: Void.self) { group in
            for writer in 0..<8 {
                group.addTask {
                    let defaults = SharedDefaults(suiteName: "group.org.example.test", container: container)!
                    for number in 0..<40 { defaults.set(number, forKey: "w\(writer)-\(number)") }
                }
            }
        }
        let all = defaults().dictionaryRepresentation()
        #expect(all.count == 320)
        #expect(all["w7-39"] as? Int == 39)
    }

    @Test func aCorruptFileIsMovedAsideNotWrittenOver() throws {
        let defaults = defaults()
        try Data("{not json".utf8).write(to: defaults.fileURL)
        #expect(defaults.string(forKey: "anything") == nil)
        let names = try FileManager.default.contentsOfDirectory(atPath: defaults.fileURL.deletingLastPathComponent().path)
        let aside = try #require(names.first { $0.hasPrefix("group.org.example.test.json.corrupt-") })
        #expect(try String(contentsOf: defaults.fileURL.deletingLastPathComponent().appendingPathComponent(aside), encoding: .utf8) == "{not json")
        defaults.set("again", forKey: "k")
        #expect(self.defaults().string(forKey: "k") == "again")
    }

    @Test func aSuiteNameThatCannotNameAContainerGivesNil() {
        #expect(SharedDefaults(suiteName: nil) == nil)
        #expect(SharedDefaults(suiteName: "") == nil)
        #expect(SharedDefaults(suiteName: "../escape") == nil)
    }
}
