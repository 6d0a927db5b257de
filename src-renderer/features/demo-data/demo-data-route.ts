/** Demo-data seeding has no state in the URL:  #/demo-data */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- a screen without state
export interface DemoDataState {}

declare module '../../routing/route' {
  interface ScreenStates {
    'demo-data': DemoDataState;
  }
}

export const parseDemoDataParams = (): DemoDataState => ({});
export const writeDemoDataParams = (): void => undefined;
