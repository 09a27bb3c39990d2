/// Field-level three-way merge of JSON objects (pure).
enum ThreeWayMerge {
    /// Merges `local` and `server`, both derived from `base`: a field changed on one
    /// side only takes that side's value; a field changed on both sides to different
    /// values is a clash and the merge gives nil.
    static func merge(base: JSONValue?, local: JSONValue?, server: JSONValue?) -> JSONValue? {
        guard let local = local?.objectValue, let server = server?.objectValue else { return nil }
        let base = base?.objectValue ?? [:]
        var merged: [String: JSONValue] = [:]
        for key in Set(base.keys).union(local.keys).union(server.keys) {
            let b = base[key], l = local[key], s = server[key]
            let value: JSONValue?
            if l == s { value = l }
            else if l == b { value = s }
            else if s == b { value = l }
            else { return nil }
            if let value { merged[key] = value }
        }
        return .object(merged)
    }
}

extension ThreeWayMerge {
    /// As ``merge(base:local:server:)``, but a field changed on both sides takes
    /// `preferred`'s value instead of failing; a side that is not an object yields `preferred`.
    static func merge(base: JSONValue?, preferred: JSONValue, other: JSONValue) -> JSONValue {
        guard let mine = preferred.objectValue, let theirs = other.objectValue else { return preferred }
        let base = base?.objectValue ?? [:]
        var merged: [String: JSONValue] = [:]
        for key in Set(base.keys).union(mine.keys).union(theirs.keys) {
            let b = base[key], p = mine[key], o = theirs[key]
            if let value = (p == b && o != b) ? o : p { merged[key] = value }
        }
        return .object(merged)
    }
}
