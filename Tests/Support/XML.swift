import Foundation
import FoundationXML

/// Whether `text` is well-formed XML; the parser's error otherwise.
public func xmlProblem(_ text: String) -> String? {
    let parser = XMLParser(data: Data(text.utf8))
    return parser.parse() ? nil : "\(parser.parserError.map { "\($0)" } ?? "unknown error") at line \(parser.lineNumber)"
}
