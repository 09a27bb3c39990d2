import OfflineStore

extension ODataServerCheck.Row {
    /// The row as `check-server` prints it: REST's keys (`collection`, `guarantee`,
    /// `outcome`, `reliedOn`, `detail`, `fix`) and `store`, what the store does.
    public var json: JSONValue {
        ["collection": .string(collection), "guarantee": .string(guarantee.rawValue), "outcome": .string(outcome.rawValue),
         "reliedOn": .bool(reliedOn), "detail": .string(detail), "store": .string(store), "fix": fix.map(JSONValue.string) ?? .null]
    }

    /// The row's mark in the text table: `holds`, `MISSING`, `fails (not relied on)`, `not checked`.
    public var mark: String {
        switch (outcome, reliedOn) {
        case (.holds, _): "holds"
        case (.fails, true): "MISSING"
        case (.fails, false): "fails (not relied on)"
        case (.notChecked, _): "not checked"
        }
    }
}

extension ODataServerCheck {
    /// The rows as an aligned table (`check-server --text`): `Set.guarantee  mark: detail`,
    /// then what the store does and the fix, each under its row.
    public var table: String {
        let width = (rows.map { $0.collection.count + $0.guarantee.rawValue.count + 1 }.max() ?? 0) + 2
        let indent = String(repeating: " ", count: width)
        var lines: [String] = []
        for row in rows {
            let name = "\(row.collection).\(row.guarantee.rawValue)"
            lines.append(name.padding(toLength: width, withPad: " ", startingAt: 0) + row.mark + ": " + row.detail)
            lines.append(indent + "store: " + row.store)
            if let fix = row.fix { lines.append(indent + "fix: " + fix) }
        }
        return lines.map { $0 + "\n" }.joined()
    }
}
