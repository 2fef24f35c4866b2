import { defineConfig } from "vitest/config"

export default defineConfig({
  test: {
    include: ["suite.test.js"],
    testTimeout: 60000,
    hookTimeout: 60000,
    reporters: ["default", "json"],
    outputFile: { json: "target/results.json" },
  },
})
