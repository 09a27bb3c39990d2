/// A key path as an error message names it: `\Task.title`. The runtime describes a computed
/// property as `\Task.<computed 0x… (Bool)>`, by the address of its getter, which tells a
/// reader nothing; that part reads `<a computed Bool property>` instead.
enum KeyPathText {
    /// The key path's description, without getter addresses.
    static func describe(_ keyPath: AnyKeyPath) -> String {
        clean(String(describing: keyPath))
    }

    /// `text` with each `<computed 0x… (Type)>` as `<a computed Type property>`, and any
    /// other getter address left out.
    static func clean(_ text: String) -> String {
        var result = text
        while let match = result.firstMatch(of: #/<computed 0x[0-9a-fA-F]+ \((.*?)\)>/#) {
            result.replaceSubrange(match.range, with: "<a computed \(match.output.1) property>")
        }
        return result.replacing(#/ ?0x[0-9a-fA-F]+/#, with: "")
    }
}
