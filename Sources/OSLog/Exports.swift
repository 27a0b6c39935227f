// As on Apple's platforms, `import OSLog` brings Foundation with it.
@_exported import Foundation
