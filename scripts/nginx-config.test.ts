import { describe, expect, it } from "vitest";
import { nginxArgs, renderNginxConfig } from "./nginx-config";

describe("renderNginxConfig", () => {
  const config = renderNginxConfig({ dir: "/tmp/cluster", listenPort: 3000, upstreamPorts: [3001, 3002] });

  it("balances the instances and keeps every file nginx writes in its folder", () => {
    expect(config).toContain("server 127.0.0.1:3001 max_fails=1 fail_timeout=5s;");
    expect(config).toContain("server 127.0.0.1:3002 max_fails=1 fail_timeout=5s;");
    expect(config).toContain("listen 127.0.0.1:3000;");
    expect(config).toContain("pid /tmp/cluster/nginx.pid;");
    expect(config).toContain("daemon off;");
    for (const line of config.split("\n").filter((entry) => /_(path|log) /.test(entry) && !/log_format/.test(entry)))
      expect(line).toContain("/tmp/cluster/");
  });

  it("forwards the client as one trusted hop and never passes a POST on to a second instance", () => {
    expect(config).toContain("proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;");
    expect(config).toContain("proxy_set_header X-Forwarded-Proto $scheme;");
    expect(config).toContain("proxy_next_upstream error timeout;");
    expect(config).not.toContain("non_idempotent");
  });

  it("streams the live updates unbuffered with a long read timeout", () => {
    const events = config.slice(config.indexOf("location = /api/events"), config.indexOf("location / {"));
    expect(events).toContain("proxy_buffering off;");
    expect(events).toContain("proxy_read_timeout 10m;");
  });

  it("refuses a body over the app's largest cap, and over the sign-in and POS caps on their paths", () => {
    expect(config).toContain("client_max_body_size 1024k;");
    const block = (location: string) => config.slice(config.indexOf(`location ${location} {`)).split("}")[0];
    expect(block("/api/auth/")).toContain("client_max_body_size 16k;");
    expect(block("/v1/")).toContain("client_max_body_size 16k;");
  });

  it("runs nginx on that config with start-up errors in the folder too", () => {
    expect(nginxArgs("/tmp/cluster", "/tmp/cluster/nginx.conf")).toEqual([
      "-p",
      "/tmp/cluster",
      "-e",
      "/tmp/cluster/error.log",
      "-c",
      "/tmp/cluster/nginx.conf",
    ]);
  });
});
