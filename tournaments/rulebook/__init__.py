"""The rules as the product shows them: the rulebook with each rule's source, the house's
procedures as players read them, the public rules page and change feed."""
