import { ConverterBuilder } from 'opencc-js/core';
import * as preset from 'opencc-js/preset';
import { describe, expect, it } from 'vitest';
import { ChineseScripts, regionOf } from './chinese.js';

describe('Chinese scripts', () => {
  const scripts = new ChineseScripts();

  it('tells Simplified from Traditional by the characters that differ', async () => {
    expect(await scripts.scriptOf('今天天气很好，我们去公园散步吧')).toBe('simplified');
    expect(await scripts.scriptOf('今天天氣很好，我們去公園散步吧')).toBe('traditional');
  });

  it('calls short texts by their one telling character', async () => {
    expect(await scripts.scriptOf('谢谢')).toBe('simplified');
    expect(await scripts.scriptOf('謝謝')).toBe('traditional');
    expect(await scripts.scriptOf('说')).toBe('simplified');
  });

  it('finds texts of characters common to both scripts written in either', async () => {
    expect(await scripts.scriptOf('你好')).toBe('either');
    expect(await scripts.scriptOf('十公里')).toBe('either');
    expect(await scripts.scriptOf('好的 ok 👍')).toBe('either');
    expect(await scripts.scriptOf('hello')).toBe('either');
  });

  it('goes by the majority in a mixed text, and a tie is either', async () => {
    expect(await scripts.scriptOf('我们说的是这個')).toBe('simplified');
    expect(await scripts.scriptOf('我們說的話，对')).toBe('traditional');
    expect(await scripts.scriptOf('台灣')).toBe('either');
  });

  it("converts Simplified into Traditional with Taiwan's phrasing, as OpenCC's s2twp does", async () => {
    expect(await scripts.convert('鼠标', 'zh-Hant')).toBe('滑鼠');
    expect(await scripts.convert('软件', 'zh-Hant')).toBe('軟體');
    const s2twp = ConverterBuilder(preset)({ from: 'cn', to: 'twp' });
    for (const text of ['鼠标和软件，内存，出租车，信息', '矢量出境检查北京汽车制造厂有限公司']) {
      expect(await scripts.convert(text, 'zh-Hant')).toBe(s2twp(text));
    }
  });

  it("converts Traditional into Simplified from the phrasing of the writer's region", async () => {
    expect(await scripts.convert('滑鼠與軟體', 'zh')).toBe('鼠标与软件');
    expect(await scripts.convert('今天天氣很好', 'zh', 'hk')).toBe('今天天气很好');
    expect(regionOf('HK')).toBe('hk');
    expect(regionOf('MO')).toBe('hk');
    expect(regionOf('TW')).toBe('tw');
    expect(regionOf(null)).toBe('tw');
  });
});

describe('the Chinese script thread', () => {
  it("keeps OpenCC's tables out of the event loop's heap", async () => {
    const scripts = new ChineseScripts();
    try {
      const before = process.memoryUsage().heapUsed;
      await scripts.preload();
      // Built here, the tables would take about 50 MB of this heap.
      expect(process.memoryUsage().heapUsed - before).toBeLessThan(15 * 1024 * 1024);
      expect(await scripts.scriptOf('软件')).toBe('simplified');
    } finally {
      await scripts.close();
    }
  });

  it('answers the texts of one turn together, each its own', async () => {
    const scripts = new ChineseScripts();
    try {
      const answers = await Promise.all([
        scripts.scriptOf('谢谢'),
        scripts.convert('鼠标', 'zh-Hant'),
        scripts.scriptOf('謝謝'),
        scripts.scriptOf('hello'),
        scripts.convert('滑鼠', 'zh'),
      ]);
      expect(answers).toEqual(['simplified', '滑鼠', 'traditional', 'either', '鼠标']);
    } finally {
      await scripts.close();
    }
  });

  it('starts again after it was closed', async () => {
    const scripts = new ChineseScripts();
    try {
      expect(await scripts.convert('软件', 'zh-Hant')).toBe('軟體');
      await scripts.close();
      expect(await scripts.convert('软件', 'zh-Hant')).toBe('軟體');
    } finally {
      await scripts.close();
    }
  });

  it('reads every text as either script while its thread cannot start, and fails conversions', async () => {
    const missing = 'file:///nonexistent/opencc.js';
    const broken = new ChineseScripts({ core: missing, preset: missing });
    try {
      await expect(broken.preload()).rejects.toThrow();
      expect(await broken.scriptOf('谢谢')).toBe('either');
      await expect(broken.convert('软件', 'zh-Hant')).rejects.toThrow(/Chinese script converter/);
    } finally {
      await broken.close();
    }
  });
});
