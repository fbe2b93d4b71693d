// VS Code's three default theme kinds as a webview sees them: the body class and the --vscode-* variables the
// webview's styles and canvas read. Values are VS Code 1.100's (Light Modern, Dark Modern, Dark High Contrast:
// the theme files' colours over the colour registry's defaults: editorWidget.border and the terminal's ANSI colours
// are the registry's), so a contrast measured here is the user's.
import type { Page } from 'playwright-core';

export interface ThemeKind {
  name: 'light' | 'dark' | 'high-contrast';
  bodyClass: string;
  colours: Record<string, string>;
}

export const THEMES: ThemeKind[] = [
  {
    name: 'light',
    bodyClass: 'vscode-light',
    colours: {
      'editor-background': '#FFFFFF',
      'editor-foreground': '#3B3B3B',
      foreground: '#3B3B3B',
      descriptionForeground: '#3B3B3B',
      errorForeground: '#F85149',
      'editorWarning-foreground': '#BF8803',
      'testing-iconPassed': '#73c991',
      'textLink-foreground': '#005FB8',
      focusBorder: '#005FB8',
      'panel-border': '#E5E5E5',
      'charts-red': '#E51400',
      'charts-blue': '#1a85ff',
      'charts-yellow': '#BF8803',
      'charts-orange': '#d18616',
      'charts-green': '#388A34',
      'charts-purple': '#652D90',
      'charts-lines': '#61616180',
      'inputValidation-warningBackground': '#F6F5D2',
      'textBlockQuote-background': '#F8F8F8',
      'editorWidget-border': '#C8C8C8',
      'terminal-ansiCyan': '#0598BC',
      'terminal-ansiMagenta': '#BC05BC',
      'terminal-ansiBrightYellow': '#B5BA00',
      disabledForeground: '#61616180',
    },
  },
  {
    name: 'dark',
    bodyClass: 'vscode-dark',
    colours: {
      'editor-background': '#1F1F1F',
      'editor-foreground': '#CCCCCC',
      foreground: '#CCCCCC',
      descriptionForeground: '#9D9D9D',
      errorForeground: '#F85149',
      'editorWarning-foreground': '#CCA700',
      'testing-iconPassed': '#73c991',
      'textLink-foreground': '#4daafc',
      focusBorder: '#0078D4',
      'panel-border': '#2B2B2B',
      'charts-red': '#F14C4C',
      'charts-blue': '#3794FF',
      'charts-yellow': '#CCA700',
      'charts-orange': '#d18616',
      'charts-green': '#89D185',
      'charts-purple': '#B180D7',
      'charts-lines': '#CCCCCC80',
      'inputValidation-warningBackground': '#352A05',
      'textBlockQuote-background': '#2B2B2B',
      'editorWidget-border': '#454545',
      'terminal-ansiCyan': '#11A8CD',
      'terminal-ansiMagenta': '#BC3FBC',
      'terminal-ansiBrightYellow': '#F5F543',
      disabledForeground: '#CCCCCC80',
    },
  },
  {
    name: 'high-contrast',
    bodyClass: 'vscode-high-contrast',
    colours: {
      'editor-background': '#000000',
      'editor-foreground': '#FFFFFF',
      foreground: '#FFFFFF',
      descriptionForeground: '#FFFFFFB3',
      errorForeground: '#F48771',
      'editorWarning-foreground': '#FFD370',
      'testing-iconPassed': '#73c991',
      'textLink-foreground': '#21A6FF',
      focusBorder: '#F38518',
      'panel-border': '#6FC3DF',
      contrastBorder: '#6FC3DF',
      'charts-red': '#F48771',
      'charts-blue': '#3794FF',
      'charts-yellow': '#FFD370',
      'charts-orange': '#AB5A00',
      'charts-green': '#89D185',
      'charts-purple': '#B180D7',
      'charts-lines': '#FFFFFF80',
      'inputValidation-warningBackground': '#000000',
      'textBlockQuote-background': '#000000',
      'editorWidget-border': '#6FC3DF',
      'terminal-ansiCyan': '#00CDCD',
      'terminal-ansiMagenta': '#CD00CD',
      'terminal-ansiBrightYellow': '#FFFF00',
      disabledForeground: '#A5A5A5',
    },
  },
];

/** Applies a theme the way VS Code does (variables on <html>, the kind's class on <body>), then waits two frames. */
export async function applyTheme(page: Page, theme: ThemeKind): Promise<void> {
  await page.evaluate(async ({ bodyClass, colours }) => {
    const font = {
      'font-family': 'system-ui, "Ubuntu", "Droid Sans", sans-serif',
      'font-size': '13px',
      'editor-font-family': 'monospace',
    };
    for (const [name, value] of Object.entries({ ...font, ...colours }))
      document.documentElement.style.setProperty(`--vscode-${name}`, value);
    document.body.classList.remove('vscode-light', 'vscode-dark', 'vscode-high-contrast');
    document.body.classList.add(bodyClass);
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  }, theme);
}
