package io.sediment.freon;

/**
 * One operation to run: its kind and the key name it works on (for listings, the name the page
 * starts after; empty for the first page).
 */
public record Op(OpType type, String name) { }
